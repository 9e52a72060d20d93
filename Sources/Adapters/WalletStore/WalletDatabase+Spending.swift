import GRDB
import Tender

extension WalletDatabase {
    /// What counts against each limit at `now`: the automatic payments in its window that
    /// were not cancelled.
    public func spendingUse(_ limits: [SpendingLimit], now: UInt64) throws -> [SpendingLimitUse] {
        try read { db in
            try limits.map { SpendingLimitUse(limit: $0, used: try Self.used(db, $0, now: now)) }
        }
    }

    /// Checks `payment` against the limits that cover it and records it in the spending
    /// ledger, inside the caller's transaction: refused when no limit covers its payee and
    /// asset, or when it would take one past its amount.
    static func reserveSpending(
        _ db: Database, _ payment: Payment, under limits: [SpendingLimit], now: UInt64
    ) throws {
        if let refusal = try refusal(
            db, payee: payment.payee, asset: payment.asset, amount: payment.amount,
            under: limits, now: now)
        {
            throw WalletStoreError(.overLimit(refusal))
        }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO spending(request_id, payee, asset, amount, spent_at)
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [
                payment.requestID, payment.payee, payment.asset, payment.amount, now.column,
            ])
    }

    /// Why `limits` would refuse a payment of `amount` to `payee` in `asset` now, or nil: read
    /// before the coins are chosen, so a payment over its limit is said to be, whatever the
    /// coins. `reserveSpending` checks again where it counts.
    public func spendingRefusal(
        payee: Address, asset: Address, amount: Amount, under limits: [SpendingLimit],
        now: UInt64
    ) throws -> SpendingRefusal? {
        try read { db in
            try Self.refusal(
                db, payee: payee, asset: asset, amount: amount, under: limits, now: now)
        }
    }

    private static func refusal(
        _ db: Database, payee: Address, asset: Address, amount: Amount,
        under limits: [SpendingLimit], now: UInt64
    ) throws -> SpendingRefusal? {
        let covering = limits.filter { $0.covers(payee: payee, asset: asset) }
        guard !covering.isEmpty else { return .uncovered(payee: payee, asset: asset) }
        for limit in covering {
            let use = SpendingLimitUse(limit: limit, used: try used(db, limit, now: now))
            let (total, overflow) = use.used.addingReportingOverflow(amount)
            guard !overflow, total <= limit.amount else {
                return .exceeded(amount: amount, use: use)
            }
        }
        return nil
    }

    /// A cancelled payment never left the node: it no longer counts against any limit.
    static func releaseSpending(_ db: Database, requestID: Bytes32) throws {
        try db.execute(sql: "DELETE FROM spending WHERE request_id = ?", arguments: [requestID])
    }

    private static func used(_ db: Database, _ limit: SpendingLimit, now: UInt64) throws -> Amount {
        let since = now >= limit.period ? now - limit.period : 0
        var sql = "SELECT amount FROM spending WHERE asset = ? AND spent_at > ?"
        var arguments: StatementArguments = [limit.asset, since.column]
        if let payee = limit.payee {
            sql += " AND payee = ?"
            arguments += [payee]
        }
        var total: Amount = 0
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try cursor.next() {
            total = addSaturating(total, try row.decode(UInt128.self, forColumn: "amount"))
        }
        return total
    }
}
