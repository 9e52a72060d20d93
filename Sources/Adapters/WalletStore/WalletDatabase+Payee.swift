import Foundation
import GRDB
import Tender

extension WalletDatabase {
    /// The payment of request `id`, with what of it was redeemed.
    public func incomingPayment(_ id: Bytes32) throws -> IncomingPaymentRecord? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT rowid AS row, * FROM incoming_payments WHERE request_id = ?",
                    arguments: [id])
            else { return nil }
            let payment = try row.decode(Int64.self, forColumn: "row")
            return try Self.incoming(
                row: row, settlements: Self.incomingSettlements(db, of: payment))
        }
    }

    /// Every accepted payment, oldest first, with what of it was redeemed.
    public func incomingPayments() throws -> [IncomingPaymentRecord] {
        try read { db in
            let settlements = try Self.incomingSettlements(db)
            return try Row.fetchAll(
                db, sql: "SELECT rowid AS row, * FROM incoming_payments ORDER BY received_at, rowid"
            ).map { row in try Self.incoming(row: row, settlements: settlements) }
        }
    }

    /// A payment's row, read with its rowid as `row`, and what of it was redeemed.
    static func incoming(
        row: Row, settlements: [Int64: IncomingSettlement]
    ) throws -> IncomingPaymentRecord {
        var record = try incoming(row: row)
        record.settlement =
            settlements[try row.decode(Int64.self, forColumn: "row")] ?? IncomingSettlement()
        return record
    }

    /// What was redeemed or is being redeemed of each received payment, by its rowid. Sums in
    /// Swift: amounts are 128-bit.
    /// (The rowid: the store is copied page by page and never vacuumed, which could renumber it.)
    static func incomingSettlements(
        _ db: Database, of payment: Int64? = nil
    ) throws -> [Int64: IncomingSettlement] {
        var result: [Int64: IncomingSettlement] = [:]
        let coins = try Row.fetchCursor(
            db,
            sql: """
                SELECT received_in, amount, state, (
                    SELECT t.hash FROM redeem_coins rc
                    JOIN redeem_transactions t ON t.hash = rc.tx AND t.state = 'final'
                    WHERE rc.coin = coins.id
                    -- A coin the vault sent back for a later batch is in an earlier final
                    -- one too: the last is the one that paid it.
                    ORDER BY t.updated_at DESC, t.rowid DESC LIMIT 1) AS tx
                FROM coins
                WHERE state IN ('redeeming', 'redeemed') AND received_in IS NOT NULL
                    \(payment == nil ? "" : "AND received_in = ?")
                ORDER BY rowid
                """,
            arguments: StatementArguments(payment.map { [$0] } ?? []))
        while let row = try coins.next() {
            let payment = try row.decode(Int64.self, forColumn: "received_in")
            let amount = try row.decode(UInt128.self, forColumn: "amount")
            var settlement = result[payment, default: IncomingSettlement()]
            if try row.decode(CoinState.self, forColumn: "state") == .redeemed {
                settlement.redeemed = addSaturating(settlement.redeemed, amount)
                if let tx = try row.decode(Bytes32?.self, forColumn: "tx"),
                    !settlement.transactions.contains(tx)
                {
                    settlement.transactions.append(tx)
                }
            } else {
                settlement.redeeming = addSaturating(settlement.redeeming, amount)
            }
            result[payment] = settlement
        }
        return result
    }

    /// The payments accepted after row `rowID` (0: all), in the order they landed, with the
    /// last row read: what a reader that polls needs, without reading the rest again.
    public func incomingPayments(
        afterRow rowID: Int64
    ) throws -> (payments: [IncomingPaymentRecord], lastRow: Int64) {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT rowid AS row, * FROM incoming_payments WHERE rowid > ? ORDER BY rowid",
                arguments: [rowID])
            let last = try rows.last.map { try $0.decode(Int64.self, forColumn: "row") } ?? rowID
            return (try rows.map(Self.incoming(row:)), last)
        }
    }

    /// The last payment row: where a reader that polls starts.
    public func lastIncomingRow() throws -> Int64 {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM incoming_payments")
                ?? 0
        }
    }

    static func incoming(_ db: Database, _ id: Bytes32) throws -> IncomingPaymentRecord? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM incoming_payments WHERE request_id = ?", arguments: [id]
        ).map(incoming(row:))
    }

    static func incoming(row: Row) throws -> IncomingPaymentRecord {
        IncomingPaymentRecord(
            requestID: try row.decode(Bytes32.self, forColumn: "request_id"),
            asset: try row.decode(Address.self, forColumn: "asset"),
            amount: try row.decode(UInt128.self, forColumn: "amount"),
            memo: try row.decode(String.self, forColumn: "memo"),
            payer: try row.decode(Address?.self, forColumn: "payer"),
            digest: try row.decode(Bytes32.self, forColumn: "digest"),
            receipt: Array(try row.decode(Data.self, forColumn: "receipt")),
            receivedAt: try row.seconds("received_at"))
    }

    /// Accepts a checked payment: its notes and transfers are stored once each and join the
    /// seen-set, the credited coins become unspent coins of this wallet (the coins the sync engine
    /// redeems), and the signed receipt is stored: one transaction. Anything that changed
    /// since the check (a coin now held, a coin now spent differently, the request now paid)
    /// aborts it all.
    public func acceptPayment(
        _ checked: CheckedPayment, receipt: [UInt8], now: UInt64
    ) throws {
        let payment = checked.payment
        try transaction { db in
            if try Self.incoming(db, payment.requestID) != nil {
                throw WalletStoreError(
                    .rejected(ProtocolError(.requestAlreadyPaid(requestID: payment.requestID))))
            }
            try db.execute(
                sql: """
                    INSERT INTO incoming_payments(request_id, asset, amount, memo, payer, digest,
                        receipt, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    payment.requestID, payment.asset, payment.amount, payment.memo,
                    checked.payer, checked.digest, Data(receipt), now.column,
                ])
            let row = db.lastInsertedRowID
            try Self.recordProof(db, checked.verified, keeping: [CoinID](), now: now)
            for coin in checked.credited {
                try Self.insertCoin(
                    db, coin, origin: Self.origin(of: coin, in: checked.verified),
                    state: .unspent, changeOf: nil, receivedIn: row, now: now)
            }
        }
    }
}
