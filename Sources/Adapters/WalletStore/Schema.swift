import GRDB

/// The wallet's tables. Migrations only ever append: a shipped migration is never edited.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: wallet") { db in
            try db.execute(
                sql: """
                    CREATE TABLE meta (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL
                    ) STRICT;

                    -- Every verified transfer this wallet has seen, by EIP-712 digest.
                    CREATE TABLE transfers (
                        digest BLOB PRIMARY KEY NOT NULL CHECK (length(digest) = 32),
                        body BLOB NOT NULL,
                        first_seen INTEGER NOT NULL
                    ) STRICT;

                    -- The seen-set: which transfer consumed each coin. One row per coin, so a
                    -- second, different spend can never be recorded beside the first.
                    CREATE TABLE spends (
                        coin BLOB PRIMARY KEY NOT NULL CHECK (length(coin) = 32),
                        transfer BLOB NOT NULL REFERENCES transfers(digest)
                    ) STRICT;

                    -- Coins this wallet owns or owned. amount: 16-byte big-endian, so BLOB order
                    -- is numeric order.
                    CREATE TABLE coins (
                        id BLOB PRIMARY KEY NOT NULL CHECK (length(id) = 32),
                        owner BLOB NOT NULL,
                        issuer BLOB NOT NULL,
                        asset BLOB NOT NULL,
                        amount BLOB NOT NULL CHECK (length(amount) = 16),
                        expiry INTEGER NOT NULL,
                        depth INTEGER NOT NULL,
                        state TEXT NOT NULL CHECK (state IN (
                            'unspent', 'reserved', 'in-doubt', 'spent', 'incoming',
                            'redeeming', 'redeemed', 'conflicted', 'expired')),
                        source TEXT NOT NULL CHECK (source IN ('received', 'change')),
                        -- The outgoing payment spending it, the one that created it as change,
                        -- the incoming payment that brought it.
                        reserved_by BLOB REFERENCES outgoing_payments(request_id),
                        change_of BLOB REFERENCES outgoing_payments(request_id),
                        received_in BLOB REFERENCES incoming_payments(request_id),
                        proof BLOB NOT NULL,
                        updated_at INTEGER NOT NULL
                    ) STRICT;
                    CREATE INDEX coins_by_selection ON coins(state, asset, amount);
                    CREATE INDEX coins_by_reservation ON coins(reserved_by);
                    CREATE INDEX coins_by_change ON coins(change_of);

                    CREATE TABLE outgoing_payments (
                        request_id BLOB PRIMARY KEY NOT NULL,
                        payee BLOB NOT NULL,
                        asset BLOB NOT NULL,
                        amount BLOB NOT NULL,
                        memo TEXT NOT NULL,
                        state TEXT NOT NULL CHECK (state IN (
                            'prepared', 'pending', 'in-doubt', 'spent', 'cancelled')),
                        digest BLOB NOT NULL,
                        envelope BLOB NOT NULL,
                        receipt BLOB,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL
                    ) STRICT;

                    CREATE TABLE incoming_payments (
                        request_id BLOB PRIMARY KEY NOT NULL,
                        asset BLOB NOT NULL,
                        amount BLOB NOT NULL,
                        memo TEXT NOT NULL,
                        digest BLOB NOT NULL,
                        receipt BLOB NOT NULL,
                        received_at INTEGER NOT NULL
                    ) STRICT;

                    CREATE TABLE evidence (
                        coin BLOB NOT NULL,
                        first BLOB NOT NULL,
                        second BLOB NOT NULL,
                        spender BLOB NOT NULL,
                        body BLOB NOT NULL,
                        found_at INTEGER NOT NULL,
                        PRIMARY KEY (coin, first, second)
                    ) STRICT;

                    CREATE TABLE trusted_issuers (
                        issuer BLOB PRIMARY KEY NOT NULL,
                        added_at INTEGER NOT NULL
                    ) STRICT;

                    -- Settlement work, written in the same transaction that accepts the coin.
                    CREATE TABLE outbox (
                        coin BLOB PRIMARY KEY NOT NULL REFERENCES coins(id),
                        idempotency_key TEXT NOT NULL UNIQUE,
                        state TEXT NOT NULL CHECK (state IN ('queued', 'submitted', 'confirmed', 'failed')),
                        created_at INTEGER NOT NULL
                    ) STRICT;
                    """)
        }
        // The payee's own requests: a payment naming one must meet its terms.
        migrator.registerMigration("v2: requests") { db in
            try db.execute(
                sql: """
                    CREATE TABLE requests (
                        id BLOB PRIMARY KEY NOT NULL,
                        asset BLOB NOT NULL,
                        amount BLOB NOT NULL,
                        memo TEXT NOT NULL,
                        expiry INTEGER NOT NULL,
                        created_at INTEGER NOT NULL
                    ) STRICT;
                    """)
        }
        // Each note and transfer stored once: a coin's proof is its ancestry, found through
        // coin_origins (which item created a coin) and spends (which coins a transfer consumed).
        // Per-coin proof copies let one payment grow the store by its size times its coins.
        migrator.registerMigration("v3: proofs stored once") { db in
            try db.execute(
                sql: """
                    CREATE TABLE notes (
                        digest BLOB PRIMARY KEY NOT NULL CHECK (length(digest) = 32),
                        body BLOB NOT NULL,
                        first_seen INTEGER NOT NULL
                    ) STRICT;

                    -- The note or transfer (by digest) that created each coin of a stored proof.
                    CREATE TABLE coin_origins (
                        coin BLOB PRIMARY KEY NOT NULL CHECK (length(coin) = 32),
                        item BLOB NOT NULL CHECK (length(item) = 32)
                    ) STRICT, WITHOUT ROWID;

                    -- The seen-set again, without a rowid (half the size), and reachable from a
                    -- transfer to its inputs: the edges of every proof.
                    CREATE TABLE spends_v3 (
                        coin BLOB PRIMARY KEY NOT NULL CHECK (length(coin) = 32),
                        transfer BLOB NOT NULL REFERENCES transfers(digest)
                    ) STRICT, WITHOUT ROWID;
                    INSERT INTO spends_v3(coin, transfer) SELECT coin, transfer FROM spends;
                    DROP TABLE spends;
                    ALTER TABLE spends_v3 RENAME TO spends;
                    CREATE INDEX spends_by_transfer ON spends(transfer);
                    """)
            try ProofMigration.moveCoinProofs(db)
            try db.execute(sql: "ALTER TABLE coins DROP COLUMN proof")
        }
        // A payment that may have left is irrevocable: its inputs are spent and its change is
        // spendable from then on (PROTOCOL.md §5), not only once the receipt arrives. And a
        // payee keeps who paid it.
        migrator.registerMigration("v4: change spendable once handed over; payer of payments") {
            db in
            try db.execute(
                sql: """
                    UPDATE coins SET state = 'spent' WHERE state = 'in-doubt' OR (state = 'reserved'
                        AND reserved_by IN (SELECT request_id FROM outgoing_payments
                            WHERE state IN ('pending', 'in-doubt', 'spent')));
                    UPDATE coins SET state = 'unspent' WHERE state = 'incoming'
                        AND change_of IN (SELECT request_id FROM outgoing_payments
                            WHERE state IN ('pending', 'in-doubt', 'spent'));
                    ALTER TABLE incoming_payments ADD COLUMN payer BLOB;
                    """)
        }
        // Settlement: each redeem transaction is signed and recorded, with its coins moved to
        // redeeming, before it is sent; a restart sends the same bytes again.
        migrator.registerMigration("v5: settlement") { db in
            try db.execute(
                sql: """
                    CREATE TABLE redeem_transactions (
                        hash BLOB PRIMARY KEY NOT NULL CHECK (length(hash) = 32),
                        chain_id INTEGER NOT NULL,
                        vault BLOB NOT NULL,
                        sender BLOB NOT NULL,
                        nonce INTEGER NOT NULL,
                        raw BLOB NOT NULL,
                        state TEXT NOT NULL CHECK (state IN (
                            'signed', 'mined', 'final', 'reverted', 'replaced')),
                        block_number INTEGER,
                        block_hash BLOB,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL
                    ) STRICT;
                    CREATE INDEX redeem_transactions_by_state ON redeem_transactions(state);

                    CREATE TABLE redeem_coins (
                        coin BLOB NOT NULL REFERENCES coins(id),
                        tx BLOB NOT NULL REFERENCES redeem_transactions(hash),
                        PRIMARY KEY (coin, tx)
                    ) STRICT;
                    CREATE INDEX redeem_coins_by_tx ON redeem_coins(tx);

                    -- The next nonce of each sender on each chain, kept across restarts.
                    CREATE TABLE nonces (
                        chain_id INTEGER NOT NULL,
                        sender BLOB NOT NULL,
                        next INTEGER NOT NULL,
                        PRIMARY KEY (chain_id, sender)
                    ) STRICT;
                    """)
        }
        // Open-mode acceptance: the issuers' collateral as last read from the vault.
        migrator.registerMigration("v6: collateral snapshot") { db in
            try db.execute(
                sql: """
                    CREATE TABLE collateral (
                        issuer BLOB NOT NULL,
                        asset BLOB NOT NULL,
                        amount BLOB NOT NULL,
                        PRIMARY KEY (issuer, asset)
                    ) STRICT, WITHOUT ROWID;
                    CREATE TABLE collateral_locks (
                        issuer BLOB PRIMARY KEY NOT NULL,
                        locked_until INTEGER NOT NULL
                    ) STRICT, WITHOUT ROWID;
                    """)
        }
        // Fraud proofs this wallet sent to the vault: recorded before sent, like redeems.
        migrator.registerMigration("v7: fraud proofs") { db in
            try db.execute(
                sql: """
                    CREATE TABLE fraud_proofs (
                        coin BLOB PRIMARY KEY NOT NULL CHECK (length(coin) = 32),
                        hash BLOB NOT NULL,
                        raw BLOB NOT NULL,
                        state TEXT NOT NULL CHECK (state IN ('sent', 'proven')),
                        updated_at INTEGER NOT NULL
                    ) STRICT;
                    """)
        }
        // A fraud proof's nonce, to tell a stuck proof (replaced with higher fees) from one
        // whose nonce another transaction took.
        migrator.registerMigration("v8: fraud proof nonces") { db in
            try db.execute(sql: "ALTER TABLE fraud_proofs ADD COLUMN nonce INTEGER")
        }
        // The spending ledger: what each payment the node made on its own counts against its
        // limits (WalletDatabase+Spending.swift); a cancelled payment's row goes with it.
        migrator.registerMigration("v9: spending limits") { db in
            try db.execute(
                sql: """
                    CREATE TABLE spending (
                        request_id BLOB PRIMARY KEY,
                        payee BLOB NOT NULL,
                        asset BLOB NOT NULL,
                        amount BLOB NOT NULL,
                        spent_at INTEGER NOT NULL
                    ) STRICT;
                    CREATE INDEX spending_by_asset ON spending(asset, spent_at);
                    """)
        }
        migrator.registerMigration("v10: asset denominations") { db in
            // A token's symbol and decimals as its contract answered at sync (Denomination).
            try db.execute(
                sql: """
                    CREATE TABLE assets (
                        asset BLOB PRIMARY KEY,
                        symbol TEXT NOT NULL,
                        decimals INTEGER NOT NULL,
                        read_at INTEGER NOT NULL
                    ) STRICT;
                    """)
        }
        migrator.registerMigration("v11: no outbox") { db in
            // Written at every acceptance and redeem, read by nothing: a coin's state and its
            // redeem transaction (redeem_coins) say all it did.
            try db.execute(sql: "DROP TABLE outbox")
        }
        // An issuer's asset whose redeems reverted (a token that refuses its payout on a vault
        // that reverts for it, a batch out of gas): planned in batches of its own, and held
        // back until retry_at once a batch of its own reverted (Docs/PROTOCOL.md §11).
        migrator.registerMigration("v12: redeem trouble") { db in
            try db.execute(
                sql: """
                    CREATE TABLE redeem_trouble (
                        issuer BLOB NOT NULL,
                        asset BLOB NOT NULL,
                        reverts INTEGER NOT NULL,
                        holds INTEGER NOT NULL,
                        retry_at INTEGER NOT NULL,
                        PRIMARY KEY (issuer, asset)
                    ) STRICT;
                    """)
        }
        // A paid coin cost about 400 bytes of store beside its 67 on the wire
        // (Docs/BENCHMARKS.md, "Storage per payment"). Its issuer and asset become references
        // to one row each of `addresses`; its origin moves into its row (coin_origins keeps
        // the coins a proof reaches that the wallet does not hold); the columns nothing read
        // (owner, always the wallet's own address; source, which change_of says; received_in)
        // go; the reservation and change indexes hold only the coins that have one. And the
        // index from a transfer to the coins it spends goes (with the foreign key that needed
        // it): a proof is walked through the inputs written in each transfer's body
        // (WalletDatabase.proof).
        migrator.registerMigration("v13: compact coins") { db in
            try db.execute(
                sql: """
                    -- The seen-set without its foreign key to transfers: with no index from
                    -- a transfer to its spends, deleting a transfer (a cancelled payment's)
                    -- would scan every spend to check it. Spends are written with their
                    -- transfer, in one transaction, and deleted before it.
                    CREATE TABLE spends_v13 (
                        coin BLOB PRIMARY KEY NOT NULL CHECK (length(coin) = 32),
                        transfer BLOB NOT NULL CHECK (length(transfer) = 32)
                    ) STRICT, WITHOUT ROWID;
                    INSERT INTO spends_v13(coin, transfer) SELECT coin, transfer FROM spends;
                    DROP TABLE spends;
                    ALTER TABLE spends_v13 RENAME TO spends;

                    CREATE TABLE addresses (
                        ref INTEGER PRIMARY KEY,
                        address BLOB NOT NULL UNIQUE CHECK (length(address) = 20)
                    ) STRICT;
                    INSERT INTO addresses(address)
                        SELECT issuer FROM coins UNION SELECT asset FROM coins;

                    CREATE TABLE coins_v13 (
                        id BLOB PRIMARY KEY NOT NULL CHECK (length(id) = 32),
                        issuer_ref INTEGER NOT NULL REFERENCES addresses(ref),
                        asset_ref INTEGER NOT NULL REFERENCES addresses(ref),
                        amount BLOB NOT NULL CHECK (length(amount) = 16),
                        expiry INTEGER NOT NULL,
                        depth INTEGER NOT NULL,
                        state TEXT NOT NULL CHECK (state IN (
                            'unspent', 'reserved', 'in-doubt', 'spent', 'incoming',
                            'redeeming', 'redeemed', 'conflicted', 'expired')),
                        -- The outgoing payment spending it, the one that created it as change.
                        reserved_by BLOB REFERENCES outgoing_payments(request_id),
                        change_of BLOB REFERENCES outgoing_payments(request_id),
                        -- The note or transfer (by digest) that created it. Null only for a
                        -- coin of an older store that had no origin row.
                        origin BLOB CHECK (origin IS NULL OR length(origin) = 32),
                        updated_at INTEGER NOT NULL
                    ) STRICT;
                    INSERT INTO coins_v13(id, issuer_ref, asset_ref, amount, expiry, depth, state,
                            reserved_by, change_of, origin, updated_at)
                        SELECT c.id, i.ref, a.ref, c.amount, c.expiry, c.depth, c.state,
                            c.reserved_by, c.change_of, o.item, c.updated_at
                        FROM coins c
                        JOIN addresses i ON i.address = c.issuer
                        JOIN addresses a ON a.address = c.asset
                        LEFT JOIN coin_origins o ON o.coin = c.id
                        ORDER BY c.rowid;
                    DELETE FROM coin_origins
                        WHERE coin IN (SELECT id FROM coins_v13 WHERE origin IS NOT NULL);
                    DROP TABLE coins;
                    ALTER TABLE coins_v13 RENAME TO coins;
                    CREATE INDEX coins_by_selection ON coins(state, asset_ref, amount);
                    CREATE INDEX coins_by_reservation ON coins(reserved_by)
                        WHERE reserved_by IS NOT NULL;
                    CREATE INDEX coins_by_change ON coins(change_of) WHERE change_of IS NOT NULL;

                    -- Coins as the queries read them: addresses in place of their references,
                    -- and seq, the order coins were stored in.
                    CREATE VIEW coin_details AS
                        SELECT c.rowid AS seq, c.id, i.address AS issuer, a.address AS asset,
                            c.amount, c.expiry, c.depth, c.state, c.reserved_by, c.change_of,
                            c.origin, c.updated_at
                        FROM coins c
                        JOIN addresses i ON i.ref = c.issuer_ref
                        JOIN addresses a ON a.ref = c.asset_ref;
                    """)
        }
        // Which received payment brought each coin (the payment's rowid, a few bytes a coin):
        // what history needs to say a payment was redeemed. Null for change, notes taken
        // before, and coins of older stores (their payments stay "received").
        migrator.registerMigration("v14: coins name their payment") { db in
            // Indexed only while on chain: a payment's redeemed part is found without reading
            // every coin, and the coins still offline cost no index entry.
            try db.execute(
                sql: """
                    ALTER TABLE coins ADD COLUMN received_in INTEGER;
                    CREATE INDEX coins_by_payment ON coins(received_in)
                        WHERE state IN ('redeeming', 'redeemed') AND received_in IS NOT NULL;
                    """)
        }
        return migrator
    }
}
