import Foundation
import GRDB
import Tender

extension WalletDatabase {
    /// Coins to redeem, oldest first, with their proofs: every coin this wallet holds unspent
    /// and unexpired at `now`, received or change (a payment's change is unspent only once the
    /// payment is handed over, and from then on its transfer may be on chain anyway).
    /// `isolated`: the coin's issuer and asset had a redeem revert; it goes in a batch of its
    /// own. Coins of an issuer's asset held back (`RedeemHold`) wait until its time.
    /// `unpayableOnly`: only coins that expire by `expiringBy` or sit at `depth` `maxHops` or
    /// deeper (a payer keeps the coins it can still pay with).
    public func redeemable(
        now: UInt64, limit: Int, unpayableOnly: (expiringBy: UInt64, maxHops: Int)? = nil
    ) throws -> [(coin: CoinID, proof: ProofBundle, isolated: Bool, asset: Address, amount: Amount)]
    {
        try read { db in
            var arguments: StatementArguments = [
                CoinState.unspent.rawValue, now.column, now.column,
            ]
            var unpayable = ""
            if let unpayableOnly {
                unpayable = " AND (c.expiry <= ? OR c.depth >= ?)"
                arguments += [unpayableOnly.expiringBy.column, unpayableOnly.maxHops]
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, c.asset, c.amount, t.reverts IS NOT NULL AS isolated FROM coin_details c
                        LEFT JOIN redeem_trouble t ON t.issuer = c.issuer AND t.asset = c.asset
                        WHERE c.state = ? AND c.expiry > ? AND (t.retry_at IS NULL OR t.retry_at <= ?)\(unpayable)
                        ORDER BY c.seq LIMIT ?
                    """,
                arguments: arguments + [limit])
            return try rows.map { row in
                let coin: Bytes32 = row["id"]
                return (
                    coin, try Self.proof(db, of: coin), row["isolated"],
                    try row.decode(Address.self, forColumn: "asset"),
                    try row.decode(UInt128.self, forColumn: "amount")
                )
            }
        }
    }

    /// Moves unspent coins past their expiry to `expired` (the vault pays them no more).
    @discardableResult
    public func expireCoins(now: UInt64) throws -> Int {
        try transaction { db in
            try db.move(coins: "expiry <= ?", [now.column], by: .expire, now: now)
        }
    }

    /// Records a signed redeem transaction before it is sent, in one transaction: the
    /// transaction, its coins moved to `redeeming` (every one, or nothing changes), and the
    /// sender's next nonce past this one. A coin already in a redeem cannot be named by a
    /// second.
    public func recordRedeem(_ redeem: SignedRedeem, now: UInt64) throws {
        try transaction { db in
            try Self.insertRedeem(db, redeem, now: now)
            for coin in redeem.coins {
                guard
                    try db.move(coins: "id = ?", [coin], by: .redeem, now: now) == 1
                else { throw WalletStoreError(.coinNotRedeemable(coin)) }
            }
        }
    }

    /// Records a transaction replacing `old` (same nonce, higher fees) for the same coins.
    public func recordReplacement(of old: Bytes32, by redeem: SignedRedeem, now: UInt64) throws {
        try transaction { db in
            guard let previous = try Self.redeemTransaction(db, old), previous.state == .signed,
                previous.nonce == redeem.nonce, Set(previous.coins) == Set(redeem.coins)
            else {
                throw WalletStoreError(
                    .refusedTransition(.redeemReplacement(old, nonce: redeem.nonce)))
            }
            try Self.insertRedeem(db, redeem, now: now)
            try Self.require(db, old, .replace, now: now)
        }
    }

    /// The transaction is in block `number` (`hash`): not final yet.
    public func redeemMined(
        _ tx: Bytes32, block number: UInt64, hash: Bytes32, now: UInt64
    ) throws {
        try transaction { db in
            guard try Self.move(db, tx, by: .mine, now: now) else { return }
            try db.execute(
                sql:
                    "UPDATE redeem_transactions SET block_number = ?, block_hash = ? WHERE hash = ?",
                arguments: [Int64(clamping: number), hash, tx])
            // The one mined of a nonce's transactions wins; the others are replaced.
            guard let mined = try Self.redeemTransaction(db, tx) else { return }
            let siblings = try Bytes32.fetchAll(
                db,
                sql: """
                    SELECT hash FROM redeem_transactions
                    WHERE chain_id = ? AND sender = ? AND nonce = ? AND hash != ?
                    """,
                arguments: [
                    Int64(clamping: mined.redeem.chainID), mined.redeem.sender,
                    Int64(clamping: mined.nonce), tx,
                ])
            for sibling in siblings { _ = try Self.move(db, sibling, by: .replace, now: now) }
        }
    }

    /// The block holding the transaction left the canonical chain: it is sent again. A
    /// transaction in no block stays as it is.
    public func redeemReorged(_ tx: Bytes32, now: UInt64) throws {
        try transaction { db in
            guard try Self.move(db, tx, by: .reorg, now: now) else { return }
            try db.execute(
                sql: """
                    UPDATE redeem_transactions SET block_number = NULL, block_hash = NULL
                    WHERE hash = ?
                    """, arguments: [tx])
        }
    }

    /// The transaction is final: each coin settled as the vault's events say, one transaction.
    /// An issuer's asset whose coins the vault refused for want of collateral is held back
    /// (returned), longer at each hold, so that no batch pays gas for the same refusal.
    @discardableResult
    public func settleRedeem(
        _ tx: Bytes32, coins settlements: [CoinID: CoinSettlement], now: UInt64
    ) throws -> [RedeemHold] {
        try transaction { db in
            guard let record = try Self.redeemTransaction(db, tx),
                RedeemTransition.finalize.from.contains(record.state)
            else {
                throw WalletStoreError(
                    .refusedTransition(
                        .redeem(
                            tx, state: try Self.redeemTransaction(db, tx)?.state, .finalize)))
            }
            for coin in record.coins {
                let settlement = settlements[coin] ?? .retry
                _ = try db.move(coins: "id = ?", [coin], by: settlement.transition, now: now)
            }
            let uncovered = Set(
                try record.coins.filter { settlements[$0] == .uncovered }.compactMap {
                    coin -> [Address]? in
                    try Row.fetchOne(
                        db, sql: "SELECT issuer, asset FROM coin_details WHERE id = ?",
                        arguments: [coin]
                    ).map { [$0["issuer"], $0["asset"]] }
                })
            // A batch that went through clears its issuers' assets of past troubles, but for
            // those it found uncovered.
            for group in try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT c.issuer, c.asset FROM coin_details c
                        JOIN redeem_coins r ON r.coin = c.id WHERE r.tx = ?
                    """, arguments: [tx])
            where !uncovered.contains([group["issuer"], group["asset"]]) {
                try db.execute(
                    sql: "DELETE FROM redeem_trouble WHERE issuer = ? AND asset = ?",
                    arguments: [group["issuer"], group["asset"]])
            }
            var holds: [RedeemHold] = []
            for group in uncovered.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                let (issuer, asset) = (group[0], group[1])
                let held =
                    try Int.fetchOne(
                        db, sql: "SELECT holds FROM redeem_trouble WHERE issuer = ? AND asset = ?",
                        arguments: [issuer, asset]) ?? 0
                let until = now + RedeemHold.delay(afterHolds: held)
                try db.execute(
                    sql: """
                        INSERT INTO redeem_trouble (issuer, asset, reverts, holds, retry_at)
                            VALUES (?, ?, 0, 1, ?)
                            ON CONFLICT (issuer, asset) DO UPDATE SET holds = holds + 1,
                                retry_at = excluded.retry_at
                        """, arguments: [issuer, asset, until.column])
                let coins =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT count(*) FROM coin_details WHERE issuer = ? AND asset = ? AND state = ?
                            """, arguments: [issuer, asset, CoinState.unspent.rawValue]) ?? 0
                holds.append(
                    RedeemHold(
                        issuer: issuer, asset: asset, coins: coins, until: until,
                        reason: .uncovered))
            }
            try Self.require(db, tx, .finalize, now: now)
            return holds
        }
    }

    /// The transaction will never be mined (another took its nonce), or it `reverted`: its
    /// coins wait for another batch. Refused for a transaction that is final, replaced or
    /// reverted already. A revert also marks each issuer's asset of the batch: its coins go in
    /// batches of their own from now on. One that reverts again alone is the culprit: it is
    /// held back (returned) until a later time, longer at each hold, while the others settle.
    @discardableResult
    public func redeemFailed(_ tx: Bytes32, reverted: Bool, now: UInt64) throws -> RedeemHold? {
        try transaction { db in
            guard let record = try Self.redeemTransaction(db, tx) else {
                throw WalletStoreError(.refusedTransition(.redeem(tx, state: nil, .fail)))
            }
            try Self.require(db, tx, .fail, now: now)
            for coin in record.coins {
                _ = try db.move(coins: "id = ?", [coin], by: .retryRedeem, now: now)
            }
            guard reverted else { return nil }
            let groups = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.issuer, c.asset, count(*) AS coins FROM coin_details c
                        JOIN redeem_coins r ON r.coin = c.id WHERE r.tx = ?
                        GROUP BY c.issuer, c.asset
                    """, arguments: [tx])
            for group in groups {
                try db.execute(
                    sql: """
                        INSERT INTO redeem_trouble (issuer, asset, reverts, holds, retry_at)
                            VALUES (?, ?, 1, 0, 0)
                            ON CONFLICT (issuer, asset) DO UPDATE SET reverts = reverts + 1
                        """, arguments: [group["issuer"], group["asset"]])
            }
            guard groups.count == 1, let group = groups.first,
                let trouble = try Row.fetchOne(
                    db,
                    sql: "SELECT reverts, holds FROM redeem_trouble WHERE issuer = ? AND asset = ?",
                    arguments: [group["issuer"], group["asset"]]),
                trouble["reverts"] as Int64 >= 2
            else { return nil }
            let until = now + RedeemHold.delay(afterHolds: trouble["holds"])
            try db.execute(
                sql: """
                    UPDATE redeem_trouble SET holds = holds + 1, retry_at = ?
                        WHERE issuer = ? AND asset = ?
                    """, arguments: [until.column, group["issuer"], group["asset"]])
            return RedeemHold(
                issuer: group["issuer"], asset: group["asset"], coins: group["coins"],
                until: until)
        }
    }

    /// Issuers' assets held back from redeems now (a batch of theirs alone reverted).
    public func redeemHolds(now: UInt64) throws -> [RedeemHold] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT t.issuer, t.asset, t.retry_at, t.reverts, (
                        SELECT count(*) FROM coin_details c WHERE c.issuer = t.issuer
                            AND c.asset = t.asset AND c.state = ?) AS coins
                        FROM redeem_trouble t WHERE t.retry_at > ? ORDER BY t.retry_at
                    """, arguments: [CoinState.unspent.rawValue, now.column]
            ).map { row in
                RedeemHold(
                    issuer: row["issuer"], asset: row["asset"], coins: row["coins"],
                    until: try row.seconds("retry_at"),
                    reason: (row["reverts"] as Int64) > 0 ? .reverted : .uncovered)
            }
        }
    }

    /// Redeem transactions not yet final (to send again, watch, or settle after a restart),
    /// oldest first.
    public func openRedeems() throws -> [RedeemTransactionRecord] {
        try read { db in
            try Bytes32.fetchAll(
                db,
                sql: """
                    SELECT hash FROM redeem_transactions WHERE state IN (?, ?)
                    ORDER BY created_at, rowid
                    """,
                arguments: [RedeemTransactionState.signed, RedeemTransactionState.mined]
            ).compactMap { try Self.redeemTransaction(db, $0) }
        }
    }

    /// The transactions `record` replaced (same chain, sender and nonce), newest first: one
    /// of them may be mined in its place.
    public func replacedRedeems(
        of record: RedeemTransactionRecord
    ) throws -> [RedeemTransactionRecord] {
        try read { db in
            try Bytes32.fetchAll(
                db,
                sql: """
                    SELECT hash FROM redeem_transactions WHERE chain_id = ? AND sender = ?
                        AND nonce = ? AND state = ? AND hash != ?
                        ORDER BY created_at DESC, rowid DESC
                    """,
                arguments: [
                    Int64(clamping: record.redeem.chainID), record.redeem.sender,
                    Int64(clamping: record.nonce), RedeemTransactionState.replaced, record.hash,
                ]
            ).compactMap { try Self.redeemTransaction(db, $0) }
        }
    }

    public func redeemTransaction(_ hash: Bytes32) throws -> RedeemTransactionRecord? {
        try read { db in try Self.redeemTransaction(db, hash) }
    }

    /// The next nonce recorded for `sender` on `chainID` (nil before its first redeem).
    public func nextNonce(chainID: UInt64, sender: Address) throws -> UInt64? {
        try read { db in
            try Int64.fetchOne(
                db, sql: "SELECT next FROM nonces WHERE chain_id = ? AND sender = ?",
                arguments: [Int64(clamping: chainID), sender]
            ).map { UInt64(clamping: $0) }
        }
    }

    // MARK: - Rows

    private static func insertRedeem(_ db: Database, _ redeem: SignedRedeem, now: UInt64) throws {
        try db.execute(
            sql: """
                INSERT INTO redeem_transactions(hash, chain_id, vault, sender, nonce, raw, state,
                    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                redeem.hash, Int64(clamping: redeem.chainID), redeem.vault, redeem.sender,
                Int64(clamping: redeem.nonce), Data(redeem.raw), RedeemTransactionState.signed,
                now.column, now.column,
            ])
        let link = try db.cachedStatement(sql: "INSERT INTO redeem_coins(coin, tx) VALUES (?, ?)")
        for coin in redeem.coins { try link.execute(arguments: [coin, redeem.hash]) }
        try useNonce(db, redeem.nonce, chainID: redeem.chainID, sender: redeem.sender)
    }

    /// `nonce` of `sender` on `chainID` is taken: the next transaction starts past it.
    static func useNonce(
        _ db: Database, _ nonce: UInt64, chainID: UInt64, sender: Address
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO nonces(chain_id, sender, next) VALUES (?, ?, ?)
                ON CONFLICT (chain_id, sender) DO UPDATE SET next = max(next, excluded.next)
                """,
            arguments: [Int64(clamping: chainID), sender, Int64(clamping: nonce + 1)])
    }

    /// Moves `tx` by `transition` if it is in one of the states the move starts from;
    /// whether it moved.
    private static func move(
        _ db: Database, _ tx: Bytes32, by transition: RedeemTransition, now: UInt64
    ) throws -> Bool {
        let from = transition.from.map(\.rawValue).sorted()
        try db.execute(
            sql: """
                UPDATE redeem_transactions SET state = ?, updated_at = ?
                WHERE hash = ? AND state IN (\(from.map { _ in "?" }.joined(separator: ", ")))
                """,
            arguments: StatementArguments(
                [transition.to.rawValue, now.column, tx] as [any DatabaseValueConvertible])
                + StatementArguments(from))
        return db.changesCount == 1
    }

    /// `move`, refused (nothing changes) when `tx` is not in a state the move starts from.
    private static func require(
        _ db: Database, _ tx: Bytes32, _ transition: RedeemTransition, now: UInt64
    ) throws {
        guard try move(db, tx, by: transition, now: now) else {
            throw WalletStoreError(
                .refusedTransition(
                    .redeem(tx, state: try redeemTransaction(db, tx)?.state, transition)))
        }
    }

    static func redeemTransaction(
        _ db: Database, _ hash: Bytes32
    ) throws
        -> RedeemTransactionRecord?
    {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM redeem_transactions WHERE hash = ?", arguments: [hash])
        else { return nil }
        let coins = try Bytes32.fetchAll(
            db, sql: "SELECT coin FROM redeem_coins WHERE tx = ? ORDER BY rowid", arguments: [hash])
        let redeem = SignedRedeem(
            hash: hash,
            chainID: UInt64(clamping: try row.decode(Int64.self, forColumn: "chain_id")),
            vault: try row.decode(Address.self, forColumn: "vault"),
            sender: try row.decode(Address.self, forColumn: "sender"),
            nonce: UInt64(clamping: try row.decode(Int64.self, forColumn: "nonce")),
            raw: Array(try row.decode(Data.self, forColumn: "raw")), coins: coins)
        return RedeemTransactionRecord(
            redeem: redeem, state: try row.decode(RedeemTransactionState.self, forColumn: "state"),
            blockNumber: try row.decode(Int64?.self, forColumn: "block_number").map {
                UInt64(clamping: $0)
            }, blockHash: try row.decode(Bytes32?.self, forColumn: "block_hash"),
            signedAt: try row.seconds("created_at"))
    }
}
