import Cashu
import Foundation
import GRDB

extension CashuDatabase {
    /// Gives `amount` in `unit` from this wallet's own proofs at `mint`: the proofs that make
    /// it exactly (largest first) become `sent`, and the token `encode` makes of them is kept
    /// with the payment, in one transaction. When no set of held proofs makes the amount
    /// exactly, nothing is written (a swap at the mint splits them; it needs the mint online).
    /// `only`: the Ys of the proofs to choose from (the fresh outputs of a swap made for this
    /// payment); nil for any of the wallet's own.
    public func send(
        amount: UInt64, unit: String, mint: String, memo: String?, now: UInt64,
        only: Set<[UInt8]>? = nil, encode: ([Proof]) throws -> String
    ) throws -> CashuPayment {
        try transaction { db in
            try Self.send(
                db, amount: amount, unit: unit, mint: mint, memo: memo, now: now, only: only,
                encode: encode)
        }
    }

    /// `send`, inside the caller's transaction.
    static func send(
        _ db: Database, amount: UInt64, unit: String, mint: String, memo: String?, now: UInt64,
        only: Set<[UInt8]>?, encode: ([Proof]) throws -> String
    ) throws -> CashuPayment {
        do {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.* FROM proofs p JOIN keysets k ON k.mint = p.mint AND k.id = p.keyset
                    WHERE p.mint = ? AND p.state = 'unspent' AND k.unit = ?
                    ORDER BY p.amount DESC, p.rowid
                    """,
                arguments: [mint, unit])
            var remaining = amount
            var chosen: [(y: [UInt8], proof: Proof)] = []
            var held: UInt64 = 0
            for row in rows {
                if let only, !only.contains(Array(row["y"] as Data)) { continue }
                let proof = try Self.proof(row)
                held &+= proof.amount
                if proof.amount <= remaining {
                    chosen.append((Array(row["y"] as Data), proof))
                    remaining -= proof.amount
                }
            }
            guard remaining == 0, amount > 0 else {
                throw CashuStoreError(
                    .insufficient,
                    held < amount
                        ? "\(held) \(unit) spendable at \(mint), \(amount) asked"
                        : "the proofs held at \(mint) cannot make \(amount) \(unit) exactly: swap at the mint to split them"
                )
            }
            let text = try encode(chosen.map(\.proof))
            try db.execute(
                sql: """
                    INSERT INTO payments (direction, mint, unit, amount, token, memo, created_at, updated_at)
                    VALUES ('out', ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [mint, unit, try Self.integer(amount, "amount"), text, memo, now, now])
            let payment = db.lastInsertedRowID
            for (y, _) in chosen {
                try db.execute(
                    sql:
                        "UPDATE proofs SET state = 'sent', sent_in = ?, updated_at = ? WHERE y = ? AND state = 'unspent'",
                    arguments: [payment, now, Data(y)])
            }
            return try Self.payment(db, id: payment)
        }
    }

    public func payments() throws -> [CashuPayment] {
        try read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM payments ORDER BY created_at, id").map {
                try Self.payment(db, id: $0)
            }
        }
    }

    /// Tokens taken after payment `id`, oldest first, with the newest id read (`id` when
    /// none): the node's feed reads them as they land, whichever process took them.
    public func incomingPayments(
        after id: Int64
    ) throws -> (
        payments: [CashuPayment], last: Int64
    ) {
        try read { db in
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM payments WHERE direction = 'in' AND id > ? ORDER BY id",
                arguments: [id])
            return (try ids.map { try Self.payment(db, id: $0) }, ids.last ?? id)
        }
    }

    /// The newest payment's id (0 when there is none).
    public func lastPaymentID() throws -> Int64 {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM payments") ?? 0 }
    }

    public func payment(_ id: Int64) throws -> CashuPayment? {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM payments WHERE id = ?", arguments: [id])
                == nil
                ? nil : try Self.payment(db, id: id)
        }
    }

    /// A payment with what became of its proofs.
    static func payment(_ db: Database, id: Int64) throws -> CashuPayment {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM payments WHERE id = ?", arguments: [id])
        else {
            throw CashuStoreError(.notFound, "no Cashu payment \(id)")
        }
        let direction = CashuPayment.Direction(rawValue: row["direction"]) ?? .incoming
        var state = CashuPayment.State.sent
        var refused: UInt64 = 0
        var refusal: String?
        var locked: UInt64 = 0
        // When the payment last changed: its own row, or any of its proofs (swapped, refused).
        var updatedAt = UInt64(row["updated_at"] as Int64)
        if direction == .incoming {
            var counts: [String: Int] = [:]
            for proof in try Row.fetchAll(
                db,
                sql:
                    "SELECT state, amount, refusal, locked, updated_at FROM proofs WHERE payment = ? ORDER BY rowid",
                arguments: [id])
            {
                let proofState: String = proof["state"]
                updatedAt = max(updatedAt, UInt64(max(proof["updated_at"] as Int64, 0)))
                counts[proofState, default: 0] += 1
                if proof["locked"] as Int64 != 0 { locked += UInt64(proof["amount"] as Int64) }
                if proofState == "refused" {
                    refused += UInt64(proof["amount"] as Int64)
                    refusal = refusal ?? proof["refusal"]
                }
            }
            let total = counts.values.reduce(0, +)
            if total == 0 {
                // Its proofs were forgeries the mint refused, since taken genuinely in
                // another token (`receive`): refused whole.
                refused = UInt64(row["amount"] as Int64)
                refusal =
                    "the mint refused its signatures; the genuine proofs came in a later token"
            }
            // A refusal is the news that matters most: shown before what is still held.
            let refusedCount = counts["refused", default: 0]
            state =
                refusedCount == total && total > 0
                ? .refused
                : refusedCount > 0
                    ? .partRefused
                    : counts["swapping", default: 0] > 0
                        ? .swapping
                        : counts["received", default: 0] > 0 ? .received : .swapped
        }
        return CashuPayment(
            id: id, direction: direction, mint: row["mint"], unit: row["unit"],
            amount: UInt64(row["amount"] as Int64), token: row["token"], memo: row["memo"],
            lockedUntil: (row["locked_until"] as Int64?).map(UInt64.init),
            createdAt: UInt64(row["created_at"] as Int64),
            updatedAt: updatedAt,
            state: state, refused: refused, refusal: refusal, locked: locked)
    }

    /// What is held at each mint in each unit at `now` (a lock whose time ran out by then is
    /// at risk again: the payer's refund key can spend it; nil: lock times not looked at).
    public func balances(now: UInt64?) throws -> [CashuBalance] {
        try read { db in
            var balances: [String: CashuBalance] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT p.mint, k.unit, p.state, p.locked, pay.locked_until AS until,
                        sum(p.amount) AS total
                    FROM proofs p JOIN keysets k ON k.mint = p.mint AND k.id = p.keyset
                    LEFT JOIN payments pay ON pay.id = p.payment
                    WHERE p.state IN ('received', 'swapping', 'melting', 'unspent')
                    GROUP BY p.mint, k.unit, p.state, p.locked, pay.locked_until
                    """)
            {
                let mint: String = row["mint"]
                let unit: String = row["unit"]
                let key = "\(mint) \(unit)"
                var balance = balances[key] ?? CashuBalance(mint: mint, unit: unit)
                let total = UInt64(row["total"] as Int64)
                let until = (row["until"] as Int64?).map { UInt64(max($0, 0)) }
                let stillLocked = until.map { until in now.map { until > $0 } ?? true } ?? true
                switch row["state"] as String {
                case "received" where row["locked"] as Int64 != 0 && stillLocked:
                    balance.locked += total
                case "received": balance.atRisk += total
                case "swapping", "melting": balance.swapping += total
                default: balance.spendable += total
                }
                balances[key] = balance
            }
            return balances.values.sorted { ($0.mint, $0.unit) < ($1.mint, $1.unit) }
        }
    }
}
