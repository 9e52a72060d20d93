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
                    raw: Array(try row.decode(Data.self, forColumn: "raw")), state: state)
            }
            return records
        }
    }

    /// Records a signed fraud proof before it is sent, and its nonce as used (one
    /// transaction): a restart sends these bytes again, and no redeem takes the nonce.
    public func recordFraudProof(
        coin: CoinID, hash: Bytes32, raw: [UInt8], chainID: UInt64, sender: Address,
        nonce: UInt64, now: UInt64
    ) throws {
        try transaction { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO fraud_proofs(coin, hash, raw, state, updated_at)
                    VALUES (?, ?, ?, 'sent', ?)
                    """, arguments: [coin, hash, Data(raw), now.column])
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

    /// A sent proof the vault refused (its transaction reverted): forgotten, tried no more.
    public func forgetFraudProof(_ coin: CoinID) throws {
        try transaction { db in
            try db.execute(sql: "DELETE FROM fraud_proofs WHERE coin = ?", arguments: [coin])
        }
    }
}
