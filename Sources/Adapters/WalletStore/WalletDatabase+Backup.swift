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

/// What a wallet knows that an older copy of it does not, in the terms that matter to money:
/// restoring the copy over it would forget each of these (`WalletDatabase.lead`).
public struct WalletLead: Sendable, Equatable {
    /// Payments made, or moved on (sent, settled, cancelled), since the copy.
    public var payments = 0
    /// Payments received since: the same payment shown again would be taken again.
    public var received = 0
    /// Coins unspent in the copy that were spent, reserved or redeemed since: spendable again.
    public var coins = 0
    /// Coins seen spent since (the seen-set): a payment replayed would be taken again.
    public var seen = 0
    /// Payments counted against spending limits since: the limits would allow them again.
    public var spending = 0
    /// Requests issued since and payable still: a payment for one would be taken as one not
    /// asked for, its terms unchecked.
    public var requests = 0

    public init() {}

    /// What `other` adds: one wallet's lead beside another's.
    public mutating func add(_ other: WalletLead) {
        payments += other.payments
        received += other.received
        coins += other.coins
        seen += other.seen
        spending += other.spending
        requests += other.requests
    }

    public var isEmpty: Bool {
        payments == 0 && received == 0 && coins == 0 && seen == 0 && spending == 0
            && requests == 0
    }
}

extension WalletDatabase {
    /// What the wallet database at `current` holds that the one at `copy` lacks (see
    /// `WalletLead`): both read in one connection (`copy` opened, `current` attached), neither
    /// changed.
    /// `now`: requests payable at it count.
    public static func lead(
        of current: String, over copy: String, now: UInt64
    ) throws -> WalletLead {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        let database = try DatabaseQueue(path: copy, configuration: configuration)
        defer { try? database.close() }
        return try database.inDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [current])
            defer { try? db.execute(sql: "DETACH DATABASE current") }
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            var lead = WalletLead()
            lead.payments = try count(
                """
                SELECT count(*) FROM current.outgoing_payments c WHERE NOT EXISTS (
                    SELECT 1 FROM main.outgoing_payments b
                    WHERE b.request_id = c.request_id AND b.state = c.state)
                """)
            lead.received = try count(
                """
                SELECT count(*) FROM current.incoming_payments c WHERE NOT EXISTS (
                    SELECT 1 FROM main.incoming_payments b WHERE b.request_id = c.request_id)
                """)
            lead.coins = try count(
                """
                SELECT count(*) FROM current.coins c JOIN main.coins b ON b.id = c.id
                    WHERE b.state = 'unspent' AND c.state != 'unspent'
                """)
            lead.seen = try count(
                """
                SELECT count(*) FROM current.spends c WHERE NOT EXISTS (
                    SELECT 1 FROM main.spends b WHERE b.coin = c.coin)
                """)
            lead.spending = try count(
                """
                SELECT count(*) FROM current.spending c WHERE NOT EXISTS (
                    SELECT 1 FROM main.spending b WHERE b.request_id = c.request_id)
                """)
            lead.requests = try count(
                """
                SELECT count(*) FROM current.requests c WHERE c.expiry > \(Int64(clamping: now))
                    AND NOT EXISTS (SELECT 1 FROM main.requests b WHERE b.id = c.id)
                """)
            return lead
        }
    }
}
