import Foundation
import GRDB
import Tender

/// A fraud proof this wallet sent: the signed transaction, kept to be sent again.
public struct FraudProofRecord: Sendable, Equatable {
    public enum State: String, Sendable { case sent, proven }
    public let coin: CoinID
    public let hash: Bytes32
    public let raw: [UInt8]
    public let state: State
    /// Its nonce (nil for a proof recorded before nonces were kept, or proven by another).
    public let nonce: UInt64?
    /// When it was signed (or found proven).
    public let signedAt: UInt64
}

extension WalletDatabase {
    public func fraudProofs() throws -> [CoinID: FraudProofRecord] {
        try read { db in
            var records: [CoinID: FraudProofRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM fraud_proofs") {
                let coin = try row.decode(Bytes32.self, forColumn: "coin")
                guard let state = FraudProofRecord.State(rawValue: row["state"]) else {
                    throw WalletStoreError(.corrupt("fraud proof of \(coin.short): bad state"))
                }
                records[coin] = FraudProofRecord(
                    coin: coin, hash: try row.decode(Bytes32.self, forColumn: "hash"),
                    raw: Array(try row.decode(Data.self, forColumn: "raw")), state: state,
                    nonce: try row.decode(Int64?.self, forColumn: "nonce").map {
                        UInt64(clamping: $0)
                    }, signedAt: try row.seconds("updated_at"))
            }
            return records
        }
    }

    /// Records a signed fraud proof before it is sent, and its nonce as used (one
    /// transaction): a restart sends these bytes again, and no redeem takes the nonce. A
    /// replacement (same nonce, higher fees) takes the place of the proof it replaces.
    public func recordFraudProof(
        coin: CoinID, hash: Bytes32, raw: [UInt8], chainID: UInt64, sender: Address,
        nonce: UInt64, now: UInt64
    ) throws {
        try transaction { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO fraud_proofs(coin, hash, raw, state, nonce, updated_at)
                    VALUES (?, ?, ?, 'sent', ?, ?)
                    """, arguments: [coin, hash, Data(raw), Int64(clamping: nonce), now.column])
            try Self.useNonce(db, nonce, chainID: chainID, sender: sender)
        }
    }

    /// The vault has the double spend of `coin` on record (this proof's or another's).
    public func fraudProven(_ coin: CoinID, now: UInt64) throws {
        try transaction { db in
            try db.execute(
                sql: """
                    INSERT INTO fraud_proofs(coin, hash, raw, state, updated_at)
                    VALUES (?, zeroblob(32), x'', 'proven', ?)
                    ON CONFLICT (coin) DO UPDATE SET state = 'proven', updated_at = excluded.updated_at
                    """, arguments: [coin, now.column])
        }
    }

    /// A sent proof the vault refused (its transaction reverted), or whose nonce another
    /// transaction took: forgotten (a dropped one is signed anew by the next pass).
    public func forgetFraudProof(_ coin: CoinID) throws {
        try transaction { db in
            try db.execute(sql: "DELETE FROM fraud_proofs WHERE coin = ?", arguments: [coin])
        }
    }
}
