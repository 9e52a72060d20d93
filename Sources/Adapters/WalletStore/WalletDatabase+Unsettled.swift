import GRDB
import Tender

extension WalletDatabase {
    public func unsettledPayments() throws -> [UnsettledPayment] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT outgoing_payments.request_id, outgoing_payments.state, coins.id,
                        coins.expiry, spends.transfer
                    FROM outgoing_payments
                    JOIN coins ON coins.reserved_by = outgoing_payments.request_id
                    JOIN spends ON spends.coin = coins.id
                    WHERE outgoing_payments.state IN (?, ?)
                    ORDER BY outgoing_payments.created_at, outgoing_payments.request_id
                    """,
                arguments: [OutgoingPaymentState.pending, OutgoingPaymentState.inDoubt])
            var order: [Bytes32] = []
            var states: [Bytes32: OutgoingPaymentState] = [:]
            var inputs: [Bytes32: [CoinID: Bytes32]] = [:]
            var windows: [Bytes32: UInt64] = [:]
            for row in rows {
                let id = try row.decode(Bytes32.self, forColumn: "request_id")
                if states[id] == nil {
                    order.append(id)
                    states[id] = try row.decode(OutgoingPaymentState.self, forColumn: "state")
                }
                inputs[id, default: [:]][try row.decode(Bytes32.self, forColumn: "id")] =
                    try row.decode(Bytes32.self, forColumn: "transfer")
                windows[id] = min(windows[id] ?? .max, try row.seconds("expiry"))
            }
            return order.map {
                UnsettledPayment(
                    requestID: $0, state: states[$0]!, inputs: inputs[$0]!, window: windows[$0]!)
            }
        }
    }
}
