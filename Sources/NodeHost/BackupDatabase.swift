import Foundation
import GRDB
import NodeKit
import Posix

#if canImport(Glibc)
import Glibc
#endif

/// The wallet databases' side of a backup: a consistent copy of a live database, the check
/// of a restored one, and whether some process has one open. Each opens its own short-lived
/// connection; the wallets' own connections stay WalletStore's (Docs/ARCHITECTURE.md).
enum BackupDatabase {
    /// A copy of the database at `path` as of one moment, through SQLite's online backup
    /// API: all pages in one step inside one read transaction, so writers (`tender node`,
    /// another command) go on in WAL mode and the copy holds whole transactions only. The copy
    /// goes to `scratch` (removed after), is checked, and is returned as bytes.
    static func snapshot(of path: String, scratch: String) throws(NodeError) -> [UInt8] {
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do {
            // Not opened read-only: a read-only last connection leaves -wal and -shm files
            // behind, where a closing read-write one removes them. It only reads (GRDB reads
            // in a query-only transaction), so the wallet's contents stay as they were.
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            let source = try DatabaseQueue(path: path, configuration: configuration)
            let copy = try DatabaseQueue(path: scratch)
            try source.backup(to: copy)
            try source.close()
            let problem = try copy.read(Self.integrityProblem)
            try copy.close()
            if let problem {
                throw NodeError(.io("the copy of \(path) fails its integrity check: \(problem)"))
            }
        } catch let error as NodeError {
            throw error
        } catch {
            throw failure(error, path)
        }
        let bytes: [UInt8]?
        do { bytes = try DurableFile.read(scratch, limit: BackupArchive.maximumSize) } catch {
            throw NodeError(.io("cannot read the copy of \(path): \(error)"))
        }
        guard let bytes else {
            throw NodeError(
                .io(
                    "\(path) is larger than a backup holds (\(BackupArchive.maximumSize >> 20) MiB)"
                ))
        }
        return bytes
    }

    /// Opens a restored database and runs SQLite's full integrity check; closed after.
    static func check(_ path: String) throws(NodeError) {
        do {
            let database = try DatabaseQueue(path: path)
            let problem = try database.read(Self.integrityProblem)
            try database.close()
            if let problem {
                throw NodeError(.io("the restored \(path) fails its integrity check: \(problem)"))
            }
        } catch let error as NodeError {
            throw error
        } catch {
            throw failure(error, path)
        }
    }

    /// What `PRAGMA integrity_check` found, or nil when it says "ok".
    static func integrityProblem(_ db: Database) throws -> String? {
        let rows = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        return rows == ["ok"] ? nil : rows.prefix(3).joined(separator: "; ")
    }

    /// Whether some connection, in this process or another, has the database at `path` open.
    /// In WAL mode SQLite's unix VFS holds a shared lock on byte 128 of the `-shm` file for
    /// as long as a connection is open; an open-file-description lock test sees it whoever
    /// holds it (a process-wide F_GETLK would miss this process's own connections).
    static func isOpen(_ path: String) -> Bool {
        let shm = path + "-shm"
        let fd = open(shm, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        lock.l_pid = 0
        // F_OFD_GETLK (Linux 3.15): glibc defines it only under _GNU_SOURCE.
        let ofdGetLock: Int32 = 36
        guard fcntl(fd, ofdGetLock, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    private static func failure(_ error: any Error, _ path: String) -> NodeError {
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY {
            return NodeError(.busy("\(path) is busy; try again"))
        }
        return NodeError(.io("cannot copy or check \(path): \(error)"))
    }
}
