import Cashu
import Codecs
import Foundation
import GRDB

/// A mint quote (NUT-04) as the wallet holds it: the invoice to pay, and the outputs the ecash
/// is minted to once they are recorded.
public struct MintQuoteRecord: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// Its invoice shown; nothing else recorded (dropped whole once it expires unpaid).
        case unpaid
        /// Outputs recorded: the mint request was sent, or was about to be.
        case issuing
        /// Minted: the proofs are the wallet's own.
        case issued
        /// The mint issued it to outputs that are not this wallet's.
        case failed
    }

    public let id: Int64
    public let mint: String
    /// The mint's quote id.
    public let quote: String
    public let unit: String
    public let amount: UInt64
    /// The BOLT11 invoice to pay.
    public let request: String
    public let expiry: UInt64?
    public let state: State
    /// The outputs recorded for it (none while unpaid).
    public let outputs: [PreparedOutput]
    public let createdAt: UInt64
}

/// A melt (NUT-05) as the wallet holds it: recorded with its inputs and blank outputs before
/// it is sent.
public struct MeltRecord: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// Sent, or about to be: the inputs are `melting` until the mint says how it went.
        case melting
        /// The invoice was paid: the inputs are spent, the change kept.
        case paid
        /// Not paid: the inputs are held as before.
        case failed
    }

    public let id: Int64
    public let mint: String
    public let quote: String
    public let unit: String
    public let amount: UInt64
    public let feeReserve: UInt64
    public let request: String
    public let state: State
    public let inputs: [Proof]
    /// NUT-08 blank outputs for the change (amount 1 each as recorded).
    public let blanks: [PreparedOutput]
    /// The invoice's preimage once paid.
    public let preimage: String?
    public let createdAt: UInt64
}

/// Mint and melt quotes' lives, each change one transaction. A mint: `saveMintQuote` (unpaid)
/// → `beginIssue` (outputs recorded) → `completeIssue` (proofs kept); an unpaid quote that
/// expires is dropped (`dropMintQuote`). A melt: `beginMelt` (inputs `melting`, blank outputs
/// recorded) → `completeMelt` (inputs spent, change kept) or `failMelt` (inputs back).
extension CashuDatabase {
    public func saveMintQuote(
        mint: String, quote: String, unit: String, amount: UInt64, request: String,
        expiry: UInt64?, now: UInt64
    ) throws -> MintQuoteRecord {
        try transaction { db in
            try db.execute(
                sql: """
                    INSERT INTO quotes (mint, quote, kind, unit, amount, request, expiry, state, created_at, updated_at)
                    VALUES (?, ?, 'mint', ?, ?, ?, ?, 'unpaid', ?, ?)
                    """,
                arguments: [
                    mint, quote, unit, try Self.integer(amount, "amount"), request,
                    try expiry.map { try Self.integer($0, "expiry") }, now, now,
                ])
            return try Self.mintQuote(db, id: db.lastInsertedRowID)
        }
    }

    /// The mint quote `quote` of `mint`, if this wallet asked for it.
    public func mintQuote(mint: String, quote: String) throws -> MintQuoteRecord? {
        try read { db in
            try Int64.fetchOne(
                db, sql: "SELECT id FROM quotes WHERE mint = ? AND quote = ? AND kind = 'mint'",
                arguments: [mint, quote]
            ).map { try Self.mintQuote(db, id: $0) }
        }
    }

    /// Mint quotes not finished (unpaid or issuing), oldest first.
    public func openMintQuotes() throws -> [MintQuoteRecord] {
        try read { db in
            try Int64.fetchAll(
                db,
                sql:
                    "SELECT id FROM quotes WHERE kind = 'mint' AND state IN ('unpaid', 'issuing') ORDER BY id"
            ).map { try Self.mintQuote(db, id: $0) }
        }
    }

    /// The quote is paid: its outputs are recorded before the mint request leaves, so its
    /// signatures can be restored (NUT-09) if the answer is lost.
    public func beginIssue(_ id: Int64, outputs: [PreparedOutput], now: UInt64) throws {
        try transaction { db in
            try Self.move(db, quote: id, kind: "mint", from: "unpaid", to: "issuing", now: now)
            try Self.record(db, outputs, quote: id)
        }
    }

    /// Minted: `proofs` (one per output, unblinded and checked) are the wallet's own.
    public func completeIssue(_ id: Int64, proofs: [Proof], now: UInt64) throws {
        let ys = try proofs.map { try $0.y() }
        try transaction { db in
            let mint = try Self.move(
                db, quote: id, kind: "mint", from: "issuing", to: "issued", now: now)
            for (proof, y) in zip(proofs, ys) {
                try Self.insert(
                    db, proof, keyset: proof.keysetID, y: y, mint: mint, state: "unspent",
                    payment: nil, madeBy: nil, now: now)
                try db.execute(
                    sql: "UPDATE proofs SET minted_by = ? WHERE y = ?", arguments: [id, Data(y)])
            }
        }
    }

    /// The mint issued the quote to outputs that are not this wallet's: kept as failed.
    public func failIssue(_ id: Int64, now: UInt64) throws {
        try transaction { db in
            let state = try String.fetchOne(
                db, sql: "SELECT state FROM quotes WHERE id = ? AND kind = 'mint'",
                arguments: [id])
            guard state == "unpaid" || state == "issuing" else {
                throw CashuStoreError(.notFound, "mint quote \(id) is not open")
            }
            try db.execute(
                sql: "UPDATE quotes SET state = 'failed', updated_at = ? WHERE id = ?",
                arguments: [now, id])
        }
    }

    /// An unpaid mint quote whose invoice expired: nothing was recorded for it but the
    /// invoice, so it is deleted whole.
    public func dropMintQuote(_ id: Int64) throws {
        try transaction { db in
            try db.execute(
                sql: "DELETE FROM quotes WHERE id = ? AND kind = 'mint' AND state = 'unpaid'",
                arguments: [id])
            guard db.changesCount == 1 else {
                throw CashuStoreError(.notFound, "mint quote \(id) is not unpaid")
            }
        }
    }

    /// Records a melt before it is sent: the quote, its inputs (unspent → melting) and its
    /// blank outputs, in one transaction.
    public func beginMelt(
        mint: String, quote: String, unit: String, amount: UInt64, feeReserve: UInt64,
        request: String, inputs: [Proof], blanks: [PreparedOutput], now: UInt64
    ) throws -> Int64 {
        let ys = try inputs.map { try $0.y() }
        return try transaction { db in
            try db.execute(
                sql: """
                    INSERT INTO quotes (mint, quote, kind, unit, amount, fee_reserve, request, state, created_at, updated_at)
                    VALUES (?, ?, 'melt', ?, ?, ?, ?, 'melting', ?, ?)
                    """,
                arguments: [
                    mint, quote, unit, try Self.integer(amount, "amount"),
                    try Self.integer(feeReserve, "fee_reserve"), request, now, now,
                ])
            let melt = db.lastInsertedRowID
            for y in ys {
                try db.execute(
                    sql: """
                        UPDATE proofs SET held_as = state, state = 'melting', melt = ?, updated_at = ?
                        WHERE y = ? AND mint = ? AND state = 'unspent'
                        """,
                    arguments: [melt, now, Data(y), mint])
                guard db.changesCount == 1 else {
                    throw CashuStoreError(
                        .notFound,
                        "proof \(Hex.encode(y.prefix(8), prefix: false))… is not held unspent at \(mint)"
                    )
                }
            }
            try Self.record(db, blanks, quote: melt)
            return melt
        }
    }

    /// The invoice was paid: the inputs are spent, `change` (unblinded, checked) is kept.
    public func completeMelt(
        _ id: Int64, change: [Proof], preimage: String?, now: UInt64
    ) throws {
        let ys = try change.map { try $0.y() }
        try transaction { db in
            let mint = try Self.move(
                db, quote: id, kind: "melt", from: "melting", to: "paid", now: now)
            try db.execute(
                sql: "UPDATE quotes SET preimage = ? WHERE id = ?", arguments: [preimage, id])
            try db.execute(
                sql: """
                    UPDATE proofs SET state = 'spent', held_as = NULL, updated_at = ?
                    WHERE melt = ? AND state = 'melting'
                    """,
                arguments: [now, id])
            for (proof, y) in zip(change, ys) {
                try Self.insert(
                    db, proof, keyset: proof.keysetID, y: y, mint: mint, state: "unspent",
                    payment: nil, madeBy: nil, now: now)
                try db.execute(
                    sql: "UPDATE proofs SET minted_by = ? WHERE y = ?", arguments: [id, Data(y)])
            }
        }
    }

    /// The invoice was not paid. Inputs in `refused` (by Y) the mint says were spent
    /// elsewhere are kept as refused, with the reason; the others are unspent again.
    public func failMelt(_ id: Int64, refused: [[UInt8]: String] = [:], now: UInt64) throws {
        try transaction { db in
            try Self.move(db, quote: id, kind: "melt", from: "melting", to: "failed", now: now)
            try Self.release(db, inputsOf: .melt, id: id, refused: refused, now: now)
        }
    }

    public func melt(_ id: Int64) throws -> MeltRecord {
        try read { db in try Self.melt(db, id: id) }
    }

    /// Melts sent (or about to be) whose outcome is not known yet, oldest first.
    public func pendingMelts() throws -> [MeltRecord] {
        try read { db in
            try Int64.fetchAll(
                db,
                sql: "SELECT id FROM quotes WHERE kind = 'melt' AND state = 'melting' ORDER BY id"
            ).map { try Self.melt(db, id: $0) }
        }
    }

    /// Mints with a mint quote or a melt not finished: what a sync has to visit.
    public func mintsWithOpenQuotes() throws -> [String] {
        try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT mint FROM quotes
                    WHERE state IN ('unpaid', 'issuing', 'melting') ORDER BY mint
                    """)
        }
    }

    // MARK: Rows

    @discardableResult
    private static func move(
        _ db: Database, quote id: Int64, kind: String, from: String, to: String, now: UInt64
    ) throws -> String {
        guard
            let mint = try String.fetchOne(
                db, sql: "SELECT mint FROM quotes WHERE id = ? AND kind = ? AND state = ?",
                arguments: [id, kind, from])
        else { throw CashuStoreError(.notFound, "\(kind) quote \(id) is not \(from)") }
        try db.execute(
            sql: "UPDATE quotes SET state = ?, updated_at = ? WHERE id = ?",
            arguments: [to, now, id])
        return mint
    }

    private static func record(_ db: Database, _ outputs: [PreparedOutput], quote: Int64) throws {
        for (position, output) in outputs.enumerated() {
            try db.execute(
                sql:
                    "INSERT INTO quote_outputs (quote, position, amount, keyset, secret, r) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    quote, position, try integer(output.amount, "amount"), Data(output.keysetID),
                    output.secret, Data(output.r),
                ])
        }
    }

    private static func outputs(_ db: Database, quote: Int64) throws -> [PreparedOutput] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM quote_outputs WHERE quote = ? ORDER BY position",
            arguments: [quote]
        ).map { row in
            do {
                return try PreparedOutput(
                    amount: UInt64(row["amount"] as Int64), keysetID: Array(row["keyset"] as Data),
                    secret: row["secret"], r: Array(row["r"] as Data))
            } catch {
                throw CashuStoreError(.corrupt, "an output of quote \(quote) cannot be read")
            }
        }
    }

    private static func mintQuote(_ db: Database, id: Int64) throws -> MintQuoteRecord {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM quotes WHERE id = ? AND kind = 'mint'", arguments: [id]),
            let state = MintQuoteRecord.State(rawValue: row["state"])
        else { throw CashuStoreError(.notFound, "no mint quote \(id)") }
        return MintQuoteRecord(
            id: id, mint: row["mint"], quote: row["quote"], unit: row["unit"],
            amount: UInt64(row["amount"] as Int64), request: row["request"],
            expiry: (row["expiry"] as Int64?).map(UInt64.init), state: state,
            outputs: try outputs(db, quote: id), createdAt: UInt64(row["created_at"] as Int64))
    }

    private static func melt(_ db: Database, id: Int64) throws -> MeltRecord {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM quotes WHERE id = ? AND kind = 'melt'", arguments: [id]),
            let state = MeltRecord.State(rawValue: row["state"])
        else { throw CashuStoreError(.notFound, "no melt \(id)") }
        let inputs = try Row.fetchAll(
            db, sql: "SELECT * FROM proofs WHERE melt = ? ORDER BY rowid", arguments: [id]
        ).map(proof)
        return MeltRecord(
            id: id, mint: row["mint"], quote: row["quote"], unit: row["unit"],
            amount: UInt64(row["amount"] as Int64),
            feeReserve: UInt64(row["fee_reserve"] as Int64), request: row["request"],
            state: state, inputs: inputs, blanks: try outputs(db, quote: id),
            preimage: row["preimage"], createdAt: UInt64(row["created_at"] as Int64))
    }
}
