import Foundation
import GRDB
import Tender

extension WalletDatabase {
    /// Balance per asset at `now`; coins expiring within `minimumLifetime` count as expiring,
    /// not spendable. Amounts are summed in Swift: SQLite integers stop at 2^63.
    public func balances(now: UInt64, minimumLifetime: UInt64) throws -> [Address: Balance] {
        try read { db in try Self.balances(db, now: now, minimumLifetime: minimumLifetime) }
    }

    static func balances(
        _ db: Database, now: UInt64, minimumLifetime: UInt64
    ) throws -> [Address: Balance] {
        do {
            var result: [Address: Balance] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql:
                    "SELECT asset, amount, state, expiry FROM coin_details WHERE state IN (?, ?, ?, ?)",
                arguments: [
                    CoinState.unspent, CoinState.reserved, CoinState.redeeming, CoinState.redeemed,
                ]
            )
            while let row = try rows.next() {
                let asset = try row.decode(Address.self, forColumn: "asset")
                let amount = try row.decode(UInt128.self, forColumn: "amount")
                let state = try row.decode(CoinState.self, forColumn: "state")
                let expiry = try row.seconds("expiry")
                var balance = result[asset, default: Balance()]
                switch state {
                case .unspent where expiry <= now:
                    balance.expired = addSaturating(balance.expired, amount)
                case .unspent where expiry <= now &+ minimumLifetime:
                    balance.expiring = addSaturating(balance.expiring, amount)
                case .unspent: balance.spendable = addSaturating(balance.spendable, amount)
                // A prepared payment's change ("incoming") is part of its reserved coins.
                case .reserved:
                    balance.pending = addSaturating(balance.pending, amount)
                    balance.reserved = addSaturating(balance.reserved, amount)
                case .redeeming: balance.redeeming = addSaturating(balance.redeeming, amount)
                case .redeemed: balance.redeemed = addSaturating(balance.redeemed, amount)
                default: break
                }
                if (state == .unspent && expiry > now) || state == .redeeming {
                    balance.receivedUnsettled = addSaturating(balance.receivedUnsettled, amount)
                }
                result[asset] = balance
            }
            let payments = try Row.fetchCursor(
                db,
                sql:
                    "SELECT asset, amount, state FROM outgoing_payments WHERE state IN (?, ?)",
                arguments: [OutgoingPaymentState.pending, OutgoingPaymentState.inDoubt]
            )
            while let row = try payments.next() {
                let asset = try row.decode(Address.self, forColumn: "asset")
                let amount = try row.decode(UInt128.self, forColumn: "amount")
                var balance = result[asset, default: Balance()]
                if try row.decode(OutgoingPaymentState.self, forColumn: "state") == .pending {
                    balance.pending = addSaturating(balance.pending, amount)
                } else {
                    balance.inDoubt = addSaturating(balance.inDoubt, amount)
                }
                result[asset] = balance
            }
            return result
        }
    }

    /// The asset of each of `coins` this wallet holds or held (what a redeem paid out in).
    public func assets(of coins: [CoinID]) throws -> [CoinID: Address] {
        try read { db in
            var result: [CoinID: Address] = [:]
            // In chunks: SQLite takes at most 32,766 parameters a statement.
            for start in stride(from: 0, to: coins.count, by: 500) {
                let chunk = coins[start..<min(start + 500, coins.count)]
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let rows = try Row.fetchAll(
                    db, sql: "SELECT id, asset FROM coin_details WHERE id IN (\(marks))",
                    arguments: StatementArguments(Array(chunk)))
                for row in rows {
                    result[try row.decode(Bytes32.self, forColumn: "id")] = try row.decode(
                        Address.self, forColumn: "asset")
                }
            }
            return result
        }
    }

    /// Coins by state, for audits and tests: id → (state, amount).
    public func coinStates() throws -> [CoinID: (state: CoinState, amount: Amount)] {
        try read { db in
            var result: [CoinID: (CoinState, Amount)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, state, amount FROM coins") {
                result[try row.decode(Bytes32.self, forColumn: "id")] = (
                    try row.decode(CoinState.self, forColumn: "state"),
                    try row.decode(UInt128.self, forColumn: "amount")
                )
            }
            return result
        }
    }

    /// Stores evidence, one per coin (the first kept: any one proves the double spend);
    /// returns whether it was new. The caller has checked the spender owns the coin.
    @discardableResult
    public func recordEvidence(
        _ evidence: DoubleSpendEvidence, body: [UInt8], now: UInt64
    ) throws
        -> Bool
    {
        try transaction { db in
            try db.execute(
                sql: """
                    INSERT INTO evidence(coin, first, second, spender, body, found_at)
                    SELECT ?1, ?2, ?3, ?4, ?5, ?6
                        WHERE NOT EXISTS (SELECT 1 FROM evidence WHERE coin = ?1)
                    """,
                arguments: [
                    evidence.coin, Data(evidence.first.encoded()),
                    Data(evidence.second.encoded()), evidence.spender, Data(body), now.column,
                ])
            return db.changesCount == 1
        }
    }

    /// Stored evidence bodies (encoded envelopes) with when they were found.
    public func evidenceBodies() throws -> [(body: [UInt8], foundAt: UInt64)] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT body, found_at FROM evidence ORDER BY found_at, rowid"
            )
            .map { row in
                let found = try row.seconds("found_at")
                return (Array(try row.decode(Data.self, forColumn: "body")), found)
            }
        }
    }

    public func trustedIssuers() throws -> Set<Address> {
        try read { db in
            Set(try Address.fetchAll(db, sql: "SELECT issuer FROM trusted_issuers"))
        }
    }

    public func trust(_ issuer: Address, now: UInt64) throws {
        try transaction { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO trusted_issuers(issuer, added_at) VALUES (?, ?)",
                arguments: [issuer, now.column])
        }
    }

    public func distrust(_ issuer: Address) throws {
        try transaction { db in
            try db.execute(
                sql: "DELETE FROM trusted_issuers WHERE issuer = ?", arguments: [issuer])
        }
    }
}

/// A sum past 2^128 stays at the maximum (over any balance or limit anyway).
func addSaturating(_ a: Amount, _ b: Amount) -> Amount {
    a.addingReportingOverflow(b).overflow ? .max : a + b
}

extension WalletDatabase {
    /// How many coins stand in each state (one indexed count, for the node's metrics).
    public func coinCounts() throws -> [CoinState: Int] {
        try read { db in try Self.counts(db, of: CoinState.self, in: "coins") }
    }

    /// How many payments this wallet made, by state.
    public func outgoingPaymentCounts() throws -> [OutgoingPaymentState: Int] {
        try read { db in try Self.counts(db, of: OutgoingPaymentState.self, in: "outgoing_payments")
        }
    }

    public func incomingPaymentCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM incoming_payments") ?? 0 }
    }

    /// Rows of `table` counted by their `state` column.
    private static func counts<State: DatabaseValueConvertible & Hashable>(
        _ db: Database, of: State.Type, in table: String
    ) throws -> [State: Int] {
        var counts: [State: Int] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT state, count(*) AS n FROM \(table) GROUP BY state")
        {
            counts[try row.decode(State.self, forColumn: "state")] = try row.decode(
                Int.self, forColumn: "n")
        }
        return counts
    }
}
