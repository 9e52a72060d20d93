import Cashu
import Codecs
import Foundation
import GRDB
import Secp256k1

/// The Cashu wallet's SQLite database (WAL, through GRDB), beside the Tender wallet's own.
/// Every state change of a proof is one `BEGIN IMMEDIATE` transaction: a crash leaves all of it
/// or none.
///
/// `DatabaseQueue` is Sendable and serialises access to its one `sqlite3*`; this type adds no
/// mutable state.
public final class CashuDatabase: Sendable {
    public let path: String
    let queue: DatabaseQueue

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        self.path = path
        queue = try DatabaseQueue(path: path, configuration: configuration)
        let migrator = CashuSchema.migrator
        if try !queue.read(migrator.hasCompletedMigrations) { try migrator.migrate(queue) }
    }

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

    func read<T>(_ body: (Database) throws -> T) throws -> T { try queue.read(body) }

    public func close() throws { try queue.close() }

    // MARK: Identity

    /// The public key tokens may be locked to (hex, compressed): kept so a token can be checked
    /// offline without the wallet key's passphrase. Set once; a different one is refused.
    public func lockPublicKey() throws -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'lock-key'")
        }
    }

    public func setLockPublicKey(_ hex: String) throws {
        try transaction { db in
            if let held = try String.fetchOne(
                db, sql: "SELECT value FROM meta WHERE key = 'lock-key'")
            {
                guard held == hex else {
                    throw CashuStoreError(
                        .corrupt, "this Cashu store belongs to another wallet key")
                }
                return
            }
            try db.execute(
                sql: "INSERT INTO meta (key, value) VALUES ('lock-key', ?)", arguments: [hex])
        }
    }

    // MARK: Mints and keysets

    public func addMint(_ url: String, now: UInt64) throws {
        try transaction { db in
            try db.execute(
                sql: "INSERT INTO mints (url, added_at) VALUES (?, ?) ON CONFLICT(url) DO NOTHING",
                arguments: [url, now])
        }
    }

    public func mints() throws -> [MintRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM mints ORDER BY added_at, url").map { row in
                MintRecord(
                    url: row["url"], addedAt: UInt64(row["added_at"] as Int64),
                    keysFetchedAt: (row["keys_fetched_at"] as Int64?).map(UInt64.init))
            }
        }
    }

    /// Stores a mint's keysets as fetched (each already checked against its id). A keyset id
    /// held with other keys, or under another mint, is refused (NUT-02): nothing is written.
    public func saveKeysets(_ keysets: [Keyset], mint: String, now: UInt64) throws {
        try transaction { db in
            guard
                try Bool.fetchOne(db, sql: "SELECT 1 FROM mints WHERE url = ?", arguments: [mint])
                    != nil
            else {
                throw CashuStoreError(.unknownMint, "mint \(mint) is not one this wallet knows")
            }
            for keyset in keysets {
                let keys = Self.encode(keys: keyset.keys)
                if let row = try Row.fetchOne(
                    db, sql: "SELECT mint, keys FROM keysets WHERE id = ?",
                    arguments: [Data(keyset.id)])
                {
                    guard row["mint"] as String == mint, Array(row["keys"] as Data) == keys else {
                        throw CashuStoreError(
                            .keysetCollision,
                            "keyset \(keyset.idHex) is held already with other keys or for mint \(row["mint"] as String): refused (NUT-02)"
                        )
                    }
                    try db.execute(
                        sql:
                            "UPDATE keysets SET active = ?, input_fee_ppk = ?, final_expiry = ? WHERE mint = ? AND id = ?",
                        arguments: [
                            keyset.active, try Self.integer(keyset.inputFeePPK, "input_fee_ppk"),
                            try keyset.finalExpiry.map { try Self.integer($0, "final_expiry") },
                            mint, Data(keyset.id),
                        ])
                } else {
                    try db.execute(
                        sql: """
                            INSERT INTO keysets (id, mint, unit, keys, input_fee_ppk, final_expiry, active)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            Data(keyset.id), mint, keyset.unit, Data(keys),
                            try Self.integer(keyset.inputFeePPK, "input_fee_ppk"),
                            try keyset.finalExpiry.map { try Self.integer($0, "final_expiry") },
                            keyset.active,
                        ])
                }
            }
            try db.execute(
                sql: "UPDATE mints SET keys_fetched_at = ? WHERE url = ?", arguments: [now, mint])
        }
    }

    /// The keysets held for `mint`, each checked again against its id as it is read.
    public func keysets(mint: String) throws -> [Keyset] {
        try read { db in try Self.keysets(db, mint: mint) }
    }

    static func keysets(_ db: Database, mint: String) throws -> [Keyset] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM keysets WHERE mint = ? ORDER BY rowid", arguments: [mint]
        )
        .map { row in
            guard let keys = decode(keys: Array(row["keys"] as Data)) else {
                throw CashuStoreError(
                    .corrupt,
                    "keyset \(Hex.encode(Array(row["id"] as Data), prefix: false)) cannot be read")
            }
            return try Keyset(
                id: Array(row["id"] as Data), unit: row["unit"], keys: keys,
                inputFeePPK: UInt64(row["input_fee_ppk"] as Int64),
                finalExpiry: (row["final_expiry"] as Int64?).map(UInt64.init), active: row["active"]
            )
        }
    }

    /// SQLite integers are signed 64-bit: a larger value (from a hostile mint or token) is
    /// refused, never wrapped.
    static func integer(_ value: UInt64, _ what: String) throws -> Int64 {
        guard let integer = Int64(exactly: value) else {
            throw CashuStoreError(
                .insufficient, "\(what) \(value) is larger than this wallet holds (2^63 - 1)")
        }
        return integer
    }

    static func encode(keys: [UInt64: PublicKey]) -> [UInt8] {
        CBOR.map(keys.map { CBOR.Entry(.unsigned($0.key), .bytes($0.value.compressed)) }).encoded()
    }

    static func decode(keys bytes: [UInt8]) -> [UInt64: PublicKey]? {
        guard let entries = (try? CBOR.decode(bytes))?.mapEntries else { return nil }
        var keys: [UInt64: PublicKey] = [:]
        for entry in entries {
            guard let amount = entry.key.unsignedValue, let key = entry.value.bytesValue,
                let point = try? PublicKey(serialized: key)
            else { return nil }
            keys[amount] = point
        }
        return keys
    }
}
