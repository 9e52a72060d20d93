import Foundation
import GRDB
import Tender

/// Proofs stored once: every note and transfer a wallet keeps is one row, and each coin a
/// stored item creates has one `coin_origins` row naming it. A coin's proof is rebuilt from
/// its ancestry when it is spent.
extension WalletDatabase {
    /// Stores a verified bundle's items, records its transfers in the seen-set
    /// (`recordSpends`), and the origin of every coin a proof can reach: each coin the bundle
    /// spends, and each coin of `kept` (those this wallet now holds).
    static func recordProof(
        _ db: Database, _ verified: VerifiedBundle, keeping kept: some Sequence<CoinID>,
        now: UInt64
    ) throws {
        let insertNote = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO notes(digest, body, first_seen) VALUES (?, ?, ?)")
        for (note, digest) in zip(verified.bundle.notes, verified.noteDigests) {
            try insertNote.execute(arguments: [digest, Data(note.encoded()), now.column])
        }
        try recordSpends(
            db, transfers: verified.bundle.transfers, digests: verified.transferDigests, now: now)
        let reachable =
            verified.spentBy.keys.compactMap { verified.coins[$0] }
            + kept.compactMap { verified.coins[$0] }
        let origins = reachable.map { coin in
            switch coin.origin {
            case .note(let index): (coin.id, verified.noteDigests[index])
            case .transfer(let index, _): (coin.id, verified.transferDigests[index])
            }
        }
        try recordOrigins(db, origins)
    }

    /// Records which item (note or transfer digest) created each coin.
    static func recordOrigins(_ db: Database, _ origins: some Sequence<(CoinID, Bytes32)>) throws {
        let insert = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO coin_origins(coin, item) VALUES (?, ?)")
        for (coin, item) in origins { try insert.execute(arguments: [coin, item]) }
    }

    /// The proof of `coin`: the notes and transfers it descends from, notes first, then
    /// transfers parents first (each after every item it spends from).
    static func proof(_ db: Database, of coin: CoinID) throws -> ProofBundle {
        // level: the longest path from the coin's own item; a parent is always further away
        // than its child, so ordering by level descending puts parents first.
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    WITH RECURSIVE ancestry(item, level) AS (
                        SELECT item, 0 FROM coin_origins WHERE coin = ?
                        UNION
                        SELECT coin_origins.item, ancestry.level + 1 FROM ancestry
                        JOIN spends ON spends.transfer = ancestry.item
                        JOIN coin_origins ON coin_origins.coin = spends.coin
                    )
                    SELECT ancestry.item, max(ancestry.level) AS level, notes.body AS note,
                        transfers.body AS transfer
                    FROM ancestry
                    LEFT JOIN notes ON notes.digest = ancestry.item
                    LEFT JOIN transfers ON transfers.digest = ancestry.item
                    GROUP BY ancestry.item
                    ORDER BY level DESC, ancestry.item
                    """), arguments: [coin])
        var bundle = ProofBundle()
        for row in rows {
            let note = try row.decode(Data?.self, forColumn: "note")
            let transfer = try row.decode(Data?.self, forColumn: "transfer")
            do throws(ProtocolError) {
                if let note {
                    bundle.notes.append(try SignedNote.decode(Array(note)))
                } else if let transfer {
                    bundle.transfers.append(try SignedTransfer.decode(Array(transfer)))
                } else {
                    throw ProtocolError(.malformed("an item of the proof is missing"))
                }
            } catch { throw WalletStoreError(.corrupt("proof of coin \(coin.short): \(error)")) }
        }
        guard !bundle.notes.isEmpty else {
            throw WalletStoreError(.corrupt("proof of coin \(coin.short) has no note"))
        }
        return bundle
    }

    /// Forgets the transfers of a payment that never left the node (a cancelled payment):
    /// their spends, the origins of their outputs and their bodies.
    static func forgetTransfers(reservedBy id: Bytes32, _ db: Database) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT DISTINCT transfers.digest, transfers.body FROM spends
                JOIN coins ON coins.id = spends.coin
                JOIN transfers ON transfers.digest = spends.transfer
                WHERE coins.reserved_by = ?
                """, arguments: [id])
        for row in rows {
            let digest = try row.decode(Bytes32.self, forColumn: "digest")
            let transfer: SignedTransfer
            do {
                transfer = try SignedTransfer.decode(
                    Array(try row.decode(Data.self, forColumn: "body")))
            } catch {
                throw WalletStoreError(.corrupt("stored transfer: \(error)"))
            }
            for coin in transfer.outputCoins(digest: digest) {
                try db.execute(
                    sql: "DELETE FROM coin_origins WHERE coin = ?", arguments: [coin])
            }
            try db.execute(sql: "DELETE FROM spends WHERE transfer = ?", arguments: [digest])
            try db.execute(sql: "DELETE FROM transfers WHERE digest = ?", arguments: [digest])
        }
    }
}

/// Migration v3: the proof each coin carried is stored as items, then the column dropped.
enum ProofMigration {
    static func moveCoinProofs(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, proof, updated_at FROM coins")
        guard !rows.isEmpty else { return }
        guard let identity = try WalletDatabase.identity(db) else {
            throw WalletStoreError(.corrupt("coins without a wallet identity"))
        }
        let verifier = Verifier(domain: identity.domain)
        for row in rows {
            let proof: ProofBundle
            do {
                proof = try ProofBundle.decode(Array(try row.decode(Data.self, forColumn: "proof")))
            } catch {
                throw WalletStoreError(.corrupt("proof of a coin: \(error)"))
            }
            // Checked when the coin was accepted; verified again only to name its items.
            let verified: VerifiedBundle
            do throws(ProtocolError) { verified = try verifier.verify(proof, now: 0) } catch {
                throw WalletStoreError(.corrupt("proof of a coin: \(error)"))
            }
            let coin = try row.decode(Bytes32.self, forColumn: "id")
            try WalletDatabase.recordProof(
                db, verified, keeping: [coin], now: try row.seconds("updated_at"))
        }
    }
}
