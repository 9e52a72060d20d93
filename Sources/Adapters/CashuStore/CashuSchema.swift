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
        return migrator
    }
}
