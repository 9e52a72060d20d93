import Foundation
import GRDB
import Tender

/// The wallet's SQLite database (WAL mode, through GRDB). Every state change of a coin or a
/// payment is one `BEGIN IMMEDIATE` transaction: a crash leaves either all of it or none.
///
/// `DatabaseQueue` is Sendable and serialises access to its one `sqlite3*`; this type adds
/// no mutable state of its own.
public final class WalletDatabase: Sendable {
    public let path: String
    let queue: DatabaseQueue

    /// What a committed transaction survives.
    public enum Durability: String, Sendable {
        /// Power loss and kernel crashes too: one fsync per commit (`synchronous = FULL`).
        case powerLoss = "FULL"
        /// A killed process, not power loss: no fsync per commit (`synchronous = NORMAL`).
        /// Only for devices with protected power; the default is `powerLoss`.
        case processCrash = "NORMAL"
    }

    /// Opens (creating if needed) and migrates the database at `path`.
    public init(path: String, durability: Durability = .powerLoss) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in
            // WAL set by hand: GRDB's own WAL set-up writes a table to every file it opens,
            // and a read-only command must leave the database byte for byte as it was.
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = \(durability.rawValue)")
            // Checkpoints copy the WAL into the main file: done by `checkpoint()` and at close,
            // never inside a payment's transaction, where it would add its fsyncs to the wait.
            _ = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint = 0")
        }
        self.path = path
        queue = try DatabaseQueue(path: path, configuration: configuration)
        // Only migrate when needed: GRDB's migrator writes to the file even when it has
        // nothing to do, and a read-only command must leave the database byte for byte.
        let migrator = Schema.migrator
        if try !queue.read(migrator.hasCompletedMigrations) { try migrator.migrate(queue) }
    }

    /// Runs `body` in one immediate transaction; any throw rolls all of it back.
    func transaction<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.read(body)
    }

    /// Copies the WAL into the database file (a long-running node calls this when idle).
    public func checkpoint() throws {
        try queue.writeWithoutTransaction { db in
            _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Checkpoints, then closes the connection.
    public func close() throws {
        try checkpoint()
        try queue.close()
    }

    // MARK: Identity

    /// Binds the database to one wallet address and one domain, once. Opening it later with
    /// another identity is refused rather than mixing two wallets' coins.
    public func bind(address: Address, domain: Domain) throws {
        try transaction { db in
            let existing = try Self.identity(db)
            if let existing {
                guard existing.address == address else {
                    throw WalletStoreError(
                        .identityMismatch("it belongs to \(existing.address), not \(address)"))
                }
                guard existing.domain == domain else {
                    throw WalletStoreError(
                        .identityMismatch("it is for \(existing.domain), not \(domain)"))
                }
                return
            }
            for (key, value) in [
                ("address", address.checksummed), ("chain_id", String(domain.chainID)),
                ("vault", domain.vault.checksummed),
            ] {
                try db.execute(
                    sql: "INSERT INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
    }

    public func identity() throws -> (address: Address, domain: Domain) {
        guard let identity = try read({ try Self.identity($0) }) else {
            throw WalletStoreError(.notInitialised)
        }
        return identity
    }

    static func identity(_ db: Database) throws -> (address: Address, domain: Domain)? {
        let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM meta")
        var values: [String: String] = [:]
        for row in rows { values[row["key"]] = row["value"] }
        guard let address = values["address"], let chain = values["chain_id"],
            let vault = values["vault"]
        else { return nil }
        guard let parsedAddress = try? Address(address), let chainID = UInt64(chain),
            let parsedVault = try? Address(vault)
        else { throw WalletStoreError(.corrupt("meta table")) }
        return (parsedAddress, Domain(chainID: chainID, vault: parsedVault))
    }
}
