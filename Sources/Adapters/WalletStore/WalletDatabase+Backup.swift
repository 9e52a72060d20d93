import Foundation
import GRDB

/// A wallet database's side of a backup: a consistent copy of a live database and SQLite's
/// integrity check. Each opens its own short-lived connection, closed before it returns; the
/// wallets' long-lived connections stay `WalletDatabase`'s.
extension WalletDatabase {
    /// How long a connection waits for another's lock before failing with SQLITE_BUSY: the
    /// same as a wallet's own connections (`init(path:durability:)`).
    static let busyTimeout: TimeInterval = 10

    /// Copies the database at `source` to a new database at `destination` as of one moment,
    /// through SQLite's online backup API: all pages in one step inside one read transaction,
    /// so writers (`tender node`, another command) go on in WAL mode and the copy holds whole
    /// transactions only.
    ///
    /// The source is not opened read-only: a read-only last connection leaves -wal and -shm
    /// files behind, where a closing read-write one removes them. It only reads (GRDB reads
    /// in a query-only transaction), so the wallet's contents stay as they were.
    public static func backup(from source: String, to destination: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        let original = try DatabaseQueue(path: source, configuration: configuration)
        let copy = try DatabaseQueue(path: destination)
        try original.backup(to: copy)
        try original.close()
        try copy.close()
    }

    /// What `PRAGMA integrity_check` finds in the database at `path` (its first three
    /// complaints), or nil when it says "ok".
    public static func integrityProblem(at path: String) throws -> String? {
        let database = try DatabaseQueue(path: path)
        let rows = try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check")
        }
        try database.close()
        return rows == ["ok"] ? nil : rows.prefix(3).joined(separator: "; ")
    }

    /// Whether `error`, from `backup(from:to:)` or `integrityProblem(at:)`, means another
    /// connection held the database's lock longer than `busyTimeout`: worth trying again.
    public static func isBusy(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
    }
}
