import Foundation
import GRDB
import Tender

/// Proofs stored once: every note and transfer a wallet keeps is one row, and each coin a
/// stored item creates is named with its item: in its own row (`coins.origin`) for a coin the
/// wallet holds, else in a `coin_origins` row. A coin's proof is rebuilt from its ancestry
/// when it is spent.
extension WalletDatabase {
    /// Stores a verified bundle's items, records its transfers in the seen-set
    /// (`recordSpends`), and the origin of every coin a proof can reach: each coin the bundle
    /// spends, and each coin of `kept` (given only by migration v3: the coins a wallet holds
    /// now take their origin in their own row, `origin(of:in:)`).
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
        let spent = verified.spentBy.keys.compactMap { verified.coins[$0] }
        try recordOrigins(db, spent.map { ($0.id, origin(of: $0, in: verified)) })
        try recordOrigins(
            db,
            kept.compactMap { verified.coins[$0] }.map { ($0.id, origin(of: $0, in: verified)) },
            evenIfHeld: true)
    }

    /// The digest of the note or transfer of `verified` that created `coin`.
    static func origin(of coin: Coin, in verified: VerifiedBundle) -> Bytes32 {
        switch coin.origin {
        case .note(let index): verified.noteDigests[index]
        case .transfer(let index, _): verified.transferDigests[index]
        }
    }

    /// Records which item (note or transfer digest) created each coin, but for coins the
    /// wallet holds, whose row names it already (`evenIfHeld`: migration v3, before coins had
    /// an origin of their own).
    static func recordOrigins(
        _ db: Database, _ origins: some Sequence<(CoinID, Bytes32)>, evenIfHeld: Bool = false
    ) throws {
        let insert = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO coin_origins(coin, item) SELECT ?1, ?2
                    WHERE ?3 OR NOT EXISTS (SELECT 1 FROM coins WHERE id = ?1)
                """)
        for (coin, item) in origins { try insert.execute(arguments: [coin, item, evenIfHeld]) }
    }

    /// The proof of `coin`: the notes and transfers it descends from, notes first, then
    /// transfers parents first (each after every item it spends from).
    ///
    /// Walked here rather than in SQL: a transfer's inputs are read from its own body, so the
    /// store needs no index from a transfer to the coins it spends (a third of what each input
    /// cost, Docs/BENCHMARKS.md). An item's level is its longest path from the coin's own item;
    /// a parent is always further than its child, so ordering by level, descending, puts
    /// parents first.
    static func proof(_ db: Database, of coin: CoinID) throws -> ProofBundle {
        let reader = try ProofItemReader(db)
        func corrupt(_ what: String) -> WalletStoreError {
            WalletStoreError(.corrupt("proof of coin \(coin.short): \(what)"))
        }
        guard let root = try reader.origin(of: coin) else { throw corrupt("no origin") }
        // Every ancestor, its parents (one entry per input), and how many inputs of the
        // ancestry name it (the order below takes an item once all its children are placed).
        var items: [Bytes32: ProofItem] = [:]
        var parents: [Bytes32: [Bytes32]] = [:]
        var children: [Bytes32: Int] = [root: 0]
        var unread = [root]
        while let digest = unread.popLast() {
            guard let item = try reader.item(digest) else { throw corrupt("an item is missing") }
            items[digest] = item
            guard case .transfer(let transfer) = item else { continue }
            var itemParents: [Bytes32] = []
            for input in transfer.transfer.inputs {
                // An input without an origin was never stored: the proof is sent without it,
                // and the payee refuses it by name.
                guard let parent = try reader.origin(of: input) else { continue }
                itemParents.append(parent)
                if children[parent] == nil { unread.append(parent) }
                children[parent, default: 0] += 1
            }
            parents[digest] = itemParents
            guard items.count <= ProofItemReader.maximumItems else {
                throw corrupt("more than \(ProofItemReader.maximumItems) items")
            }
        }
        var level: [Bytes32: Int] = [root: 0]
        var ready = [root]
        var placed = 0
        while let digest = ready.popLast() {
            placed += 1
            for parent in parents[digest] ?? [] {
                level[parent] = max(level[parent] ?? 0, level[digest, default: 0] + 1)
                children[parent, default: 0] -= 1
                if children[parent] == 0 { ready.append(parent) }
            }
        }
        guard placed == items.count else { throw corrupt("its items form a cycle") }
        var bundle = ProofBundle()
        let ordered = items.sorted { left, right in
            let (l, r) = (level[left.key, default: 0], level[right.key, default: 0])
            return l != r ? l > r : left.key < right.key
        }
        for (_, item) in ordered {
            switch item {
            case .note(let note): bundle.notes.append(note)
            case .transfer(let transfer): bundle.transfers.append(transfer)
            }
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
            for input in transfer.transfer.inputs {
                try db.execute(
                    sql: "DELETE FROM spends WHERE coin = ? AND transfer = ?",
                    arguments: [input, digest])
            }
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
