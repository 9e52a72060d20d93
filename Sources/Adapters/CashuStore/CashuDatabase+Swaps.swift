import Cashu
import Codecs
import Foundation
import GRDB

/// A swap's life: recorded with its outputs before the request leaves (`beginSwap`), then
/// either done with the new proofs (`completeSwap`) or failed, with the inputs the mint refused
/// as spent elsewhere kept as refused and the rest held as before (`failSwap`). A swap still
/// pending when the wallet starts is resolved from what the mint says (NUT-07, NUT-09).
extension CashuDatabase {
    public func beginSwap(
        mint: String, inputs: [Proof], outputs: [PreparedOutput], now: UInt64
    ) throws -> Int64 {
        let ys = try inputs.map { try $0.y() }
        return try transaction { db in
            try db.execute(
                sql: "INSERT INTO swaps (mint, state, started_at) VALUES (?, 'pending', ?)",
                arguments: [mint, now])
            let swap = db.lastInsertedRowID
            for y in ys {
                try db.execute(
                    sql: """
                        UPDATE proofs SET held_as = state, state = 'swapping', swap = ?, updated_at = ?
                        WHERE y = ? AND mint = ? AND state IN ('received', 'unspent')
                        """,
                    arguments: [swap, now, Data(y), mint])
                guard db.changesCount == 1 else {
                    throw CashuStoreError(
                        .notFound,
                        "proof \(Hex.encode(y.prefix(8), prefix: false))… is not held unswapped at \(mint)"
                    )
                }
            }
            for (position, output) in outputs.enumerated() {
                try db.execute(
                    sql:
                        "INSERT INTO swap_outputs (swap, position, amount, keyset, secret, r) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        swap, position, try Self.integer(output.amount, "amount"),
                        Data(output.keysetID),
                        output.secret, Data(output.r),
                    ])
            }
            return swap
        }
    }

    /// The swap took place: its inputs are spent, `proofs` (one per output, unblinded and
    /// checked) are the wallet's own.
    /// Outputs of a swap given away as they are made (a give's payment, locked or not): their
    /// token recorded as one outgoing payment in the swap's own transaction, so they are
    /// never, even after a crash, counted as the wallet's own.
    public struct Giving {
        /// The Ys of the outputs given.
        public let ys: Set<[UInt8]>
        public let unit: String
        public let memo: String?
        public let encode: ([Proof]) throws -> String

        public init(
            ys: Set<[UInt8]>, unit: String, memo: String?,
            encode: @escaping ([Proof]) throws -> String
        ) {
            self.ys = ys
            self.unit = unit
            self.memo = memo
            self.encode = encode
        }
    }

    /// The swap took place: its inputs are spent and `proofs` (its outputs, signed) are the
    /// wallet's own, but for those `giving` names, given in one payment (returned).
    @discardableResult
    public func completeSwap(
        _ swap: Int64, proofs: [Proof], now: UInt64, giving: Giving? = nil
    ) throws -> CashuPayment? {
        let ys = try proofs.map { try $0.y() }
        return try transaction { db in
            let mint = try Self.pendingMint(db, swap)
            try db.execute(
                sql:
                    "UPDATE proofs SET state = 'spent', held_as = NULL, updated_at = ? WHERE swap = ? AND state = 'swapping'",
                arguments: [now, swap])
            for (index, proof) in proofs.enumerated() {
                try Self.insert(
                    db, proof, keyset: proof.keysetID, y: ys[index], mint: mint, state: "unspent",
                    payment: nil,
                    madeBy: swap, now: now)
            }
            try db.execute(
                sql: "UPDATE swaps SET state = 'done', ended_at = ? WHERE id = ?",
                arguments: [now, swap])
            guard let giving else { return nil }
            let amount = zip(ys, proofs).reduce(UInt64(0)) {
                giving.ys.contains($1.0) ? $0 + $1.1.amount : $0
            }
            return try Self.send(
                db, amount: amount, unit: giving.unit, mint: mint, memo: giving.memo, now: now,
                only: giving.ys, encode: giving.encode)
        }
    }

    /// The swap did not take place. Inputs in `refused` (by Y) were spent elsewhere, the mint
    /// says: they are kept as refused, with the reason; the others are held as before.
    public func failSwap(_ swap: Int64, refused: [[UInt8]: String], now: UInt64) throws {
        try transaction { db in
            _ = try Self.pendingMint(db, swap)
            try Self.release(
                db, inputsOf: .swap, id: swap, refused: refused, now: now)
            try db.execute(
                sql: "UPDATE swaps SET state = 'failed', ended_at = ? WHERE id = ?",
                arguments: [now, swap])
        }
    }

    /// What holds proofs as inputs while it is in flight: the column that links them, and the
    /// state they are in meanwhile.
    enum InputHolder: String {
        case swap, melt

        var holdingState: String { self == .swap ? "swapping" : "melting" }
    }

    /// The inputs of a swap or melt that did not take place: those in `refused` (by Y), spent
    /// elsewhere the mint says, kept as refused with the reason; the others back as they were
    /// held before.
    static func release(
        _ db: Database, inputsOf holder: InputHolder, id: Int64, refused: [[UInt8]: String],
        now: UInt64
    ) throws {
        let (link, state) = (holder.rawValue, holder.holdingState)
        for (y, reason) in refused {
            try db.execute(
                sql: """
                    UPDATE proofs SET state = 'refused', refusal = ?, held_as = NULL, updated_at = ?
                    WHERE y = ? AND \(link) = ? AND state = '\(state)'
                    """,
                arguments: [reason, now, Data(y), id])
        }
        try db.execute(
            sql: """
                UPDATE proofs SET state = held_as, held_as = NULL, \(link) = NULL, updated_at = ?
                WHERE \(link) = ? AND state = '\(state)'
                """,
            arguments: [now, id])
    }

    private static func pendingMint(_ db: Database, _ swap: Int64) throws -> String {
        guard
            let mint = try String.fetchOne(
                db, sql: "SELECT mint FROM swaps WHERE id = ? AND state = 'pending'",
                arguments: [swap])
        else { throw CashuStoreError(.notFound, "swap \(swap) is not pending") }
        return mint
    }

    /// Swaps begun and not ended, oldest first, with their inputs and outputs.
    public func pendingSwaps() throws -> [PendingSwap] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, mint FROM swaps WHERE state = 'pending' ORDER BY id"
            ).map { row in
                let id: Int64 = row["id"]
                let inputs = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT * FROM proofs WHERE swap = ? AND state = 'swapping' ORDER BY rowid",
                    arguments: [id]
                ).map(Self.proof)
                let outputs = try Row.fetchAll(
                    db, sql: "SELECT * FROM swap_outputs WHERE swap = ? ORDER BY position",
                    arguments: [id]
                ).map { output in
                    try PreparedOutput(
                        amount: UInt64(output["amount"] as Int64),
                        keysetID: Array(output["keyset"] as Data),
                        secret: output["secret"], r: Array(output["r"] as Data))
                }
                let taken =
                    try Bool.fetchOne(
                        db,
                        sql:
                            "SELECT EXISTS (SELECT 1 FROM proofs WHERE swap = ? AND payment IS NOT NULL)",
                        arguments: [id]) ?? false
                return PendingSwap(
                    id: id, mint: row["mint"], inputs: inputs, outputs: outputs,
                    takenOffline: taken)
            }
        }
    }
}
