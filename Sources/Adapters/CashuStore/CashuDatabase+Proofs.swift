import Cashu
import Codecs
import Foundation
import GRDB
import Secp256k1

extension CashuDatabase {
    /// Records a token taken offline, after `OfflineAcceptance` passed it: one payment and its
    /// proofs, `received`, in one transaction. A proof held already (the same token twice, or
    /// this wallet's own) refuses the whole token, naming the payment it came in.
    /// The payer's memo as kept: its words (unsigned: shown, never relied on) up to 256
    /// characters, and a NUL (which SQLite's text ends at) shown as U+FFFD. The token's own
    /// text, kept beside it, has every byte.
    static func memo(_ memo: String) -> String {
        let visible = memo.replacing("\u{0}", with: "\u{FFFD}")
        return visible.count > maxMemoCharacters
            ? String(visible.prefix(maxMemoCharacters - 1)) + "…" : visible
    }

    public static let maxMemoCharacters = 256

    /// Takes `token` (checked: `accepted`) as received. A proof held already refuses it whole,
    /// but with `takingBack`, proofs this wallet gave (`sent`) are taken back: their rows
    /// become the new payment's (the outgoing payment keeps its token), to be swapped at once.
    public func receive(
        _ token: Token, text: String, accepted: OfflineAcceptance.Accepted, now: UInt64,
        takingBack: Bool = false
    ) throws -> CashuPayment {
        let ys = try token.proofs.map { try $0.y() }
        return try transaction { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM mints WHERE url = ?", arguments: [token.mint]) != nil
            else {
                throw CashuStoreError(
                    .unknownMint, "mint \(token.mint) is not one this wallet knows")
            }
            for (index, y) in ys.enumerated() {
                if let row = try Row.fetchOne(
                    db, sql: "SELECT payment, sent_in, state, c FROM proofs WHERE y = ?",
                    arguments: [Data(y)])
                {
                    if row["state"] as String == "sent" {
                        let given = (row["sent_in"] as Int64?).map { " (payment \($0))" } ?? ""
                        guard takingBack else {
                            throw CashuStoreError(
                                .alreadyHeld,
                                "this wallet gave this token\(given): it is taken back only swapped at the mint, online"
                            )
                        }
                        try db.execute(sql: "DELETE FROM proofs WHERE y = ?", arguments: [Data(y)])
                        continue
                    }
                    // A proof the mint refused whose signature was not this one's was a
                    // forgery of its secret: it does not keep the genuine proof out.
                    if row["state"] as String == "refused",
                        Array(row["c"] as Data) != token.proofs[index].signature.compressed
                    {
                        try db.execute(sql: "DELETE FROM proofs WHERE y = ?", arguments: [Data(y)])
                        continue
                    }
                    let payment = (row["payment"] as Int64?).map { " (payment \($0))" } ?? ""
                    throw CashuStoreError(
                        .alreadyHeld,
                        "this token was taken already\(payment): its proof \(Hex.encode(y.prefix(8), prefix: false))… is \(row["state"] as String)"
                    )
                }
            }
            try db.execute(
                sql: """
                    INSERT INTO payments (direction, mint, unit, amount, token, memo, locked_until, created_at, updated_at)
                    VALUES ('in', ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    token.mint, token.unit, try Self.integer(accepted.amount, "amount"), text,
                    token.memo.map(Self.memo),
                    try accepted.lockedUntil.map { try Self.integer($0, "locktime") }, now, now,
                ])
            let payment = db.lastInsertedRowID
            for (index, proof) in token.proofs.enumerated() {
                // The payer's witness means nothing to the payee, and a mint refuses one on a
                // proof without a condition: never kept.
                try Self.insert(
                    db, proof.with(witness: nil), keyset: accepted.keysetIDs[index], y: ys[index],
                    mint: token.mint, state: "received", payment: payment, madeBy: nil, now: now,
                    locked: accepted.locked[index])
            }
            return try Self.payment(db, id: payment)
        }
    }

    static func insert(
        _ db: Database, _ proof: Proof, keyset: [UInt8], y: [UInt8], mint: String, state: String,
        payment: Int64?, madeBy: Int64?, now: UInt64, locked: Bool = false
    ) throws {
        let dleq = proof.dleq.map { $0.e + $0.s + ($0.r ?? []) }
        try db.execute(
            sql: """
                INSERT INTO proofs (y, mint, keyset, amount, secret, c, dleq, witness, state, payment, made_by, updated_at, locked)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                Data(y), mint, Data(keyset), try integer(proof.amount, "amount"), proof.secret,
                Data(proof.signature.compressed),
                dleq.map { Data($0) }, proof.witness, state, payment, madeBy, now, locked,
            ])
    }

    static func proof(_ row: Row) throws -> Proof {
        guard let signature = try? PublicKey(serialized: Array(row["c"] as Data)) else {
            throw CashuStoreError(.corrupt, "a proof's signature cannot be read")
        }
        var dleq: DLEQProof?
        if let bytes = (row["dleq"] as Data?).map { Array($0) } {
            guard bytes.count == 64 || bytes.count == 96 else {
                throw CashuStoreError(.corrupt, "a proof's DLEQ cannot be read")
            }
            dleq = try? DLEQProof(
                e: Array(bytes[0..<32]), s: Array(bytes[32..<64]),
                r: bytes.count == 96 ? Array(bytes[64...]) : nil)
        }
        return Proof(
            amount: UInt64(row["amount"] as Int64), keysetID: Array(row["keyset"] as Data),
            secret: row["secret"],
            signature: signature, dleq: dleq, witness: row["witness"])
    }

    /// The proofs at `mint` in one of `states`, oldest first.
    public func proofs(mint: String, states: [String]) throws -> [Proof] {
        try read { db in
            let marks = states.map { _ in "?" }.joined(separator: ", ")
            return try Row.fetchAll(
                db,
                sql: "SELECT * FROM proofs WHERE mint = ? AND state IN (\(marks)) ORDER BY rowid",
                arguments: StatementArguments([mint] + states)
            ).map(Self.proof)
        }
    }

    /// Mints that hold proofs not yet swapped: what a sync has to visit.
    public func mintsWithReceivedProofs() throws -> [String] {
        try read { db in
            try String.fetchAll(
                db, sql: "SELECT DISTINCT mint FROM proofs WHERE state = 'received' ORDER BY mint")
        }
    }
}
