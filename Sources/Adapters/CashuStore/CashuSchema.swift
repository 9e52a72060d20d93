import GRDB

/// The Cashu wallet's tables. Migrations only ever append: a shipped one is never edited.
enum CashuSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: cashu wallet") { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    ) STRICT;

                    CREATE TABLE mints (
                        url TEXT PRIMARY KEY NOT NULL,
                        added_at INTEGER NOT NULL,
                        keys_fetched_at INTEGER
                    ) STRICT;

                    -- A mint's keys as fetched, each keyset checked against its id (NUT-02)
                    -- before it was stored. keys: CBOR map amount -> 33-byte key.
                    CREATE TABLE keysets (
                        mint TEXT NOT NULL REFERENCES mints(url),
                        id BLOB NOT NULL,
                        unit TEXT NOT NULL,
                        keys BLOB NOT NULL,
                        input_fee_ppk INTEGER NOT NULL,
                        final_expiry INTEGER,
                        active INTEGER NOT NULL,
                        -- Per mint: another mint publishing the same keys (and so the same
                        -- id) cannot take this one's place.
                        PRIMARY KEY (mint, id)
                    ) STRICT;

                    -- A token taken or given; `token` is its text as it came or went: the
                    -- evidence when the mint refuses it, and what a payer can give again.
                    CREATE TABLE payments (
                        id INTEGER PRIMARY KEY,
                        direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
                        mint TEXT NOT NULL,
                        unit TEXT NOT NULL,
                        amount INTEGER NOT NULL,
                        token TEXT NOT NULL,
                        memo TEXT,
                        locked_until INTEGER,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL
                    ) STRICT;

                    -- A swap at the mint, recorded with its outputs (secret and blinding
                    -- factor) before the request leaves, so its signatures can be recovered
                    -- (NUT-09) after a crash.
                    CREATE TABLE swaps (
                        id INTEGER PRIMARY KEY,
                        mint TEXT NOT NULL,
                        state TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
                        started_at INTEGER NOT NULL,
                        ended_at INTEGER
                    ) STRICT;
                    CREATE TABLE swap_outputs (
                        swap INTEGER NOT NULL REFERENCES swaps(id),
                        position INTEGER NOT NULL,
                        amount INTEGER NOT NULL,
                        keyset BLOB NOT NULL,
                        secret TEXT NOT NULL,
                        r BLOB NOT NULL CHECK (length(r) = 32),
                        PRIMARY KEY (swap, position)
                    ) STRICT;

                    -- Every proof this wallet holds or held, by Y = hash_to_curve(secret): one
                    -- row a proof, so the same proof can never be counted twice.
                    -- received: taken offline, not yet swapped (the payer could still spend it);
                    -- swapping: an input of a pending swap (held_as: its state before);
                    -- unspent: the wallet's own, from a swap; sent: given in a token;
                    -- spent: swapped away; refused: the mint says it was spent elsewhere.
                    CREATE TABLE proofs (
                        y BLOB PRIMARY KEY NOT NULL CHECK (length(y) = 33),
                        mint TEXT NOT NULL,
                        keyset BLOB NOT NULL,
                        amount INTEGER NOT NULL,
                        secret TEXT NOT NULL,
                        c BLOB NOT NULL CHECK (length(c) = 33),
                        dleq BLOB,
                        witness TEXT,
                        -- 1: locked to this wallet's key (NUT-11), so the payer cannot spend it.
                        locked INTEGER NOT NULL DEFAULT 0,
                        state TEXT NOT NULL CHECK (state IN (
                            'received', 'swapping', 'unspent', 'sent', 'spent', 'refused')),
                        held_as TEXT CHECK (held_as IN ('received', 'unspent')),
                        payment INTEGER REFERENCES payments(id),
                        sent_in INTEGER REFERENCES payments(id),
                        swap INTEGER REFERENCES swaps(id),
                        made_by INTEGER REFERENCES swaps(id),
                        refusal TEXT,
                        updated_at INTEGER NOT NULL
                    ) STRICT;
                    CREATE INDEX proofs_by_state ON proofs(mint, state, amount);
                    -- A proof's keyset, of its own mint.
                    CREATE TRIGGER proofs_keyset_known BEFORE INSERT ON proofs
                    WHEN NOT EXISTS (SELECT 1 FROM keysets WHERE mint = NEW.mint AND id = NEW.keyset)
                    BEGIN SELECT RAISE(ABORT, 'proof of a keyset the mint does not have'); END;
                    CREATE INDEX proofs_by_payment ON proofs(payment);
                    CREATE INDEX proofs_by_swap ON proofs(swap);
                    """)
        }
        migrator.registerMigration("v2: lightning quotes") { db in
            try db.execute(sql: lightningQuotes)
        }
        return migrator
    }

    /// v2: minting from a paid invoice (NUT-04) and paying one with ecash (NUT-05), each
    /// recorded before its request leaves (Docs/CASHU.md, "Lightning: mint and melt"). The
    /// proofs table is made again (SQLite cannot change a CHECK) with the state `melting` and
    /// the quote each proof is an input to (`melt`) or was made by (`minted_by`).
    static let lightningQuotes = """
        -- A Lightning quote at a mint, by the mint's quote id (a secret: whoever knows a paid
        -- mint quote's id can take its ecash).
        -- A mint quote: unpaid (its invoice shown, nothing else recorded, so one that expires
        -- unpaid is deleted whole) -> issuing (outputs recorded, POST /v1/mint sent or about
        -- to be) -> issued; failed when the mint issued it to outputs not this wallet's.
        -- A melt quote is recorded only when paid with: melting (inputs marked `melting`,
        -- blank outputs recorded, POST /v1/melt sent or about to be) -> paid | failed.
        CREATE TABLE quotes (
            id INTEGER PRIMARY KEY,
            mint TEXT NOT NULL REFERENCES mints(url),
            quote TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('mint', 'melt')),
            unit TEXT NOT NULL,
            amount INTEGER NOT NULL,
            fee_reserve INTEGER NOT NULL DEFAULT 0,
            request TEXT NOT NULL,
            expiry INTEGER,
            state TEXT NOT NULL CHECK (state IN (
                'unpaid', 'issuing', 'issued', 'melting', 'paid', 'failed')),
            preimage TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            UNIQUE (mint, quote)
        ) STRICT;
        -- A mint quote's outputs, or a melt's blank outputs for its change (NUT-08: amount 1
        -- as sent; the mint sets the amount it signs).
        CREATE TABLE quote_outputs (
            quote INTEGER NOT NULL REFERENCES quotes(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            amount INTEGER NOT NULL,
            keyset BLOB NOT NULL,
            secret TEXT NOT NULL,
            r BLOB NOT NULL CHECK (length(r) = 32),
            PRIMARY KEY (quote, position)
        ) STRICT;

        -- As v1, and: melting: an input of a melt in flight (held_as: unspent).
        CREATE TABLE proofs_v2 (
            y BLOB PRIMARY KEY NOT NULL CHECK (length(y) = 33),
            mint TEXT NOT NULL,
            keyset BLOB NOT NULL,
            amount INTEGER NOT NULL,
            secret TEXT NOT NULL,
            c BLOB NOT NULL CHECK (length(c) = 33),
            dleq BLOB,
            witness TEXT,
            locked INTEGER NOT NULL DEFAULT 0,
            state TEXT NOT NULL CHECK (state IN (
                'received', 'swapping', 'melting', 'unspent', 'sent', 'spent', 'refused')),
            held_as TEXT CHECK (held_as IN ('received', 'unspent')),
            payment INTEGER REFERENCES payments(id),
            sent_in INTEGER REFERENCES payments(id),
            swap INTEGER REFERENCES swaps(id),
            made_by INTEGER REFERENCES swaps(id),
            melt INTEGER REFERENCES quotes(id),
            minted_by INTEGER REFERENCES quotes(id),
            refusal TEXT,
            updated_at INTEGER NOT NULL
        ) STRICT;
        INSERT INTO proofs_v2 (y, mint, keyset, amount, secret, c, dleq, witness, locked, state,
            held_as, payment, sent_in, swap, made_by, refusal, updated_at)
        SELECT y, mint, keyset, amount, secret, c, dleq, witness, locked, state,
            held_as, payment, sent_in, swap, made_by, refusal, updated_at FROM proofs;
        DROP TABLE proofs;
        ALTER TABLE proofs_v2 RENAME TO proofs;
        CREATE INDEX proofs_by_state ON proofs(mint, state, amount);
        CREATE TRIGGER proofs_keyset_known BEFORE INSERT ON proofs
        WHEN NOT EXISTS (SELECT 1 FROM keysets WHERE mint = NEW.mint AND id = NEW.keyset)
        BEGIN SELECT RAISE(ABORT, 'proof of a keyset the mint does not have'); END;
        CREATE INDEX proofs_by_payment ON proofs(payment);
        CREATE INDEX proofs_by_swap ON proofs(swap);
        CREATE INDEX proofs_by_melt ON proofs(melt);
        """
}
