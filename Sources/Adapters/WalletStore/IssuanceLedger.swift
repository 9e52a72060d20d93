import Foundation
import GRDB
import Tender

/// What an issuer signed, from its folder (`issued.sqlite`): one row per issuance, so that
/// notes issued in several calls are bounded by the collateral together, and the issuer sees
/// what is outstanding. Notes are outstanding until they expire: the issuer cannot see which
/// were redeemed (the vault pays coins, not notes), so the figure is an upper bound.
public final class IssuanceLedger: Sendable {
    let queue: DatabaseQueue

    /// One issuance's figures.
    public struct Entry: Sendable, Equatable {
        public let requestID: Bytes32
        public let domain: Domain
        public let asset: Address
        public let total: Amount
        public let notes: Int
        public let expiry: UInt64
        public let issuedAt: UInt64

        public init(
            requestID: Bytes32, domain: Domain, asset: Address, total: Amount, notes: Int,
            expiry: UInt64, issuedAt: UInt64
        ) {
            self.requestID = requestID
            self.domain = domain
            self.asset = asset
            self.total = total
            self.notes = notes
            self.expiry = expiry
            self.issuedAt = issuedAt
        }
    }

    /// What is outstanding of one asset in one vault: notes not yet expired.
    public struct Outstanding: Sendable, Equatable {
        public var total: Amount = 0
        public var notes = 0
        /// The last of their expiries (0: none).
        public var lastExpiry: UInt64 = 0
    }

    public init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(WalletDatabase.busyTimeout)
        configuration.prepareDatabase { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE issued (
                        request_id BLOB PRIMARY KEY NOT NULL,
                        chain_id INTEGER NOT NULL,
                        vault BLOB NOT NULL,
                        asset BLOB NOT NULL,
                        total BLOB NOT NULL,
                        notes INTEGER NOT NULL,
                        expiry INTEGER NOT NULL,
                        issued_at INTEGER NOT NULL
                    ) STRICT;
                    CREATE INDEX issued_by_domain ON issued(chain_id, vault, asset, expiry);
                    """)
        }
        if try !queue.read(migrator.hasCompletedMigrations) { try migrator.migrate(queue) }
    }

    /// Records `entry` (before its notes leave the issuer: a record without notes only
    /// overstates what is outstanding).
    public func record(_ entry: Entry) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO issued(request_id, chain_id, vault, asset, total, notes, expiry, issued_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    entry.requestID, entry.domain.chainID.column, entry.domain.vault, entry.asset,
                    entry.total, entry.notes, entry.expiry.column, entry.issuedAt.column,
                ])
        }
    }

    /// Takes back a record whose notes were never written.
    public func forget(_ requestID: Bytes32) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM issued WHERE request_id = ?", arguments: [requestID])
        }
    }

    /// Per asset, the notes of `domain` that have not expired at `now`.
    public func outstanding(in domain: Domain, now: UInt64) throws -> [Address: Outstanding] {
        try queue.read { db in
            var result: [Address: Outstanding] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT asset, total, notes, expiry FROM issued
                        WHERE chain_id = ? AND vault = ? AND expiry > ?
                    """,
                arguments: [domain.chainID.column, domain.vault, now.column])
            while let row = try rows.next() {
                let asset = try row.decode(Address.self, forColumn: "asset")
                var figures = result[asset, default: Outstanding()]
                let total = try row.decode(UInt128.self, forColumn: "total")
                figures.total = checkedSum([figures.total, total]) ?? .max
                figures.notes += try row.decode(Int.self, forColumn: "notes")
                figures.lastExpiry = max(figures.lastExpiry, try row.seconds("expiry"))
                result[asset] = figures
            }
            return result
        }
    }

    public func close() throws { try queue.close() }
}
