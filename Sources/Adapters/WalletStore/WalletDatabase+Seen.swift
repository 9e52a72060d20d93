import Foundation
import GRDB
import Tender

extension WalletDatabase {
    /// The seen-set entries for these coins: the transfer that consumed each, if any.
    public func seenSpends(of coins: some Sequence<CoinID>) throws -> [CoinID: SignedTransfer] {
        let ids = Array(Set(coins))
        return try read { db in try Self.seenSpends(db, of: ids) }
    }

    static func seenSpends(_ db: Database, of coins: [CoinID]) throws -> [CoinID: SignedTransfer] {
        var result: [CoinID: SignedTransfer] = [:]
        let statement = try db.cachedStatement(
            sql: """
                SELECT transfers.body FROM spends JOIN transfers ON transfers.digest = spends.transfer
                WHERE spends.coin = ?
                """)
        for coin in coins {
            guard let body = try Data.fetchOne(statement, arguments: [coin]) else { continue }
            do { result[coin] = try SignedTransfer.decode(Array(body)) } catch {
                throw WalletStoreError(.corrupt("stored transfer: \(error)"))
            }
        }
        return result
    }

    /// Which of these coins this wallet holds or ever held (any state).
    public func heldCoins(among coins: some Sequence<CoinID>) throws -> Set<CoinID> {
        let ids = Array(Set(coins))
        return try read { db in try Self.heldCoins(db, among: ids) }
    }

    static func heldCoins(_ db: Database, among coins: [CoinID]) throws -> Set<CoinID> {
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM coins WHERE id = ?")
        return Set(try coins.filter { try Bool.fetchOne(statement, arguments: [$0]) != nil })
    }

    /// Records verified transfers and the coins they consume. A coin already consumed by a
    /// different transfer aborts the transaction: the caller's verification was stale.
    static func recordSpends(
        _ db: Database, transfers: [SignedTransfer], digests: [Bytes32], now: UInt64
    ) throws {
        let insertTransfer = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO transfers(digest, body, first_seen) VALUES (?, ?, ?)")
        let existingSpend = try db.cachedStatement(
            sql: "SELECT transfer FROM spends WHERE coin = ?")
        let insertSpend = try db.cachedStatement(
            sql: "INSERT INTO spends(coin, transfer) VALUES (?, ?)")
        for (signed, digest) in zip(transfers, digests) {
            try insertTransfer.execute(arguments: [digest, Data(signed.encoded()), now.column])
            for input in signed.transfer.inputs {
                if let existing = try Data.fetchOne(existingSpend, arguments: [input]) {
                    guard existing == Data(digest.bytes) else {
                        throw WalletStoreError(.coinNotSpendable(input))
                    }
                    continue
                }
                try insertSpend.execute(arguments: [input, digest])
            }
        }
    }
}

extension WalletDatabase {
    /// What this wallet's own records say of `coin`'s owner: its own address for a coin it
    /// holds or held, else the note or transfer that created the coin (the caller finds the
    /// output), else the transfer it saw spend the coin (whose signer is the owner). Nil: it
    /// has never met the coin.
    public func ownership(of coin: CoinID) throws -> CoinOwnership? {
        try read { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM coins WHERE id = ?", arguments: [coin])
                != nil
            {
                // A wallet holds only coins of its own address (PaymentCheck, change).
                guard let identity = try Self.identity(db) else {
                    throw WalletStoreError(.notInitialised)
                }
                return .held(owner: identity.address)
            }
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT notes.body AS note, transfers.body AS transfer FROM coin_origins
                        LEFT JOIN notes ON notes.digest = coin_origins.item
                        LEFT JOIN transfers ON transfers.digest = coin_origins.item
                        WHERE coin_origins.coin = ?
                    """, arguments: [coin])
            {
                do {
                    if let note = row["note"] as Data? {
                        return .issued(by: try SignedNote.decode(Array(note)))
                    }
                    if let transfer = row["transfer"] as Data? {
                        return .paid(by: try SignedTransfer.decode(Array(transfer)))
                    }
                } catch { throw WalletStoreError(.corrupt("stored proof item: \(error)")) }
            }
            return try Self.seenSpends(db, of: [coin])[coin].map { .spentBy($0) }
        }
    }

    /// Whether evidence of `coin`'s double spend is stored already (one is kept per coin).
    public func hasEvidence(of coin: CoinID) throws -> Bool {
        try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM evidence WHERE coin = ?)",
                arguments: [coin]) ?? false
        }
    }
}

/// How a wallet knows a coin's owner (`WalletDatabase.ownership(of:)`).
public enum CoinOwnership: Sendable, Equatable {
    /// A coin the wallet holds or held, with its owner as stored.
    case held(owner: Address)
    /// The note that created it.
    case issued(by: SignedNote)
    /// The transfer among whose outputs it is.
    case paid(by: SignedTransfer)
    /// The verified transfer that spent it: its signer is the owner.
    case spentBy(SignedTransfer)
}
