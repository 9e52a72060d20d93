import Foundation
import GRDB
import Tender

extension WalletDatabase {
    /// The coins a double spend cost this wallet: each coin it holds that the vault refused
    /// as spent already (`conflicted`), and every coin its proof consumes (one of them was
    /// spent twice).
    public func coinsLostToDoubleSpends() throws -> Set<CoinID> {
        try read { db in
            var lost = Set<CoinID>()
            for coin in try Bytes32.fetchAll(
                db, sql: "SELECT id FROM coins WHERE state = ?", arguments: [CoinState.conflicted])
            {
                lost.insert(coin)
                for transfer in try Self.proof(db, of: coin).transfers {
                    lost.formUnion(transfer.transfer.inputs)
                }
            }
            return lost
        }
    }

    public func fraudProofs() throws -> [CoinID: FraudProofRecord] {
        try read { db in
            var records: [CoinID: FraudProofRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM fraud_proofs") {
                let coin = try row.decode(Bytes32.self, forColumn: "coin")
                guard let state = FraudProofState(rawValue: row["state"]) else {
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
            try Self.require(db, coin, .send)
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO fraud_proofs(coin, hash, raw, state, nonce, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    coin, hash, Data(raw), FraudProofState.sent.rawValue, Int64(clamping: nonce),
                    now.column,
                ])
            try Self.useNonce(db, nonce, chainID: chainID, sender: sender)
        }
    }

    /// The vault has the double spend of `coin` on record (this proof's or another's). Said
    /// again, it changes nothing.
    public func fraudProven(_ coin: CoinID, now: UInt64) throws {
        try transaction { db in
            guard try Self.fraudProofState(db, coin) != .proven else { return }
            try Self.require(db, coin, .prove)
            try db.execute(
                sql: """
                    INSERT INTO fraud_proofs(coin, hash, raw, state, updated_at)
                    VALUES (?, zeroblob(32), x'', ?, ?)
                    ON CONFLICT (coin) DO UPDATE SET state = excluded.state,
                        updated_at = excluded.updated_at
                    """, arguments: [coin, FraudProofState.proven.rawValue, now.column])
        }
    }

    /// A sent proof the vault refused (its transaction reverted), or whose nonce another
    /// transaction took: forgotten (a dropped one is signed anew by the next pass). A proven
    /// one is never forgotten.
    public func forgetFraudProof(_ coin: CoinID) throws {
        try transaction { db in
            try Self.require(db, coin, .forget)
            try db.execute(sql: "DELETE FROM fraud_proofs WHERE coin = ?", arguments: [coin])
        }
    }

    private static func fraudProofState(_ db: Database, _ coin: CoinID) throws -> FraudProofState? {
        guard
            let stored = try String.fetchOne(
                db, sql: "SELECT state FROM fraud_proofs WHERE coin = ?", arguments: [coin])
        else { return nil }
        guard let state = FraudProofState(rawValue: stored) else {
            throw WalletStoreError(.corrupt("fraud proof of \(coin.short): bad state"))
        }
        return state
    }

    /// Refuses `transition` (nothing changes) unless the coin's proof is in a state it starts
    /// from.
    private static func require(
        _ db: Database, _ coin: CoinID, _ transition: FraudProofTransition
    ) throws {
        let state = try fraudProofState(db, coin)
        guard transition.from.contains(state) else {
            throw WalletStoreError(.refusedTransition(.fraudProof(coin, state: state, transition)))
        }
    }
}
