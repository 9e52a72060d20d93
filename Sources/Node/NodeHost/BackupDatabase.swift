import Foundation
import NodeKit
import Posix
import WalletStore

#if canImport(Glibc)
import Glibc
#endif

/// The wallet databases' side of a backup: a consistent copy of a live database, the check
/// of a restored one (both WalletStore's, Docs/ARCHITECTURE.md), and whether some process
/// has one open.
enum BackupDatabase {
    /// A copy of the database at `path` as of one moment (`WalletDatabase.backup`: writers
    /// go on meanwhile, the copy holds whole transactions only). The copy goes to `scratch`
    /// (removed after), is checked, and is returned as bytes.
    static func snapshot(of path: String, scratch: String) throws(NodeError) -> [UInt8] {
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let problem = try sqlite(path) {
            try WalletDatabase.backup(from: path, to: scratch)
            return try WalletDatabase.integrityProblem(at: scratch)
        }
        if let problem {
            throw NodeError(.io("the copy of \(path) fails its integrity check: \(problem)"))
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

    /// Runs SQLite's full integrity check on a restored database.
    static func check(_ path: String) throws(NodeError) {
        if let problem = try sqlite(path, { try WalletDatabase.integrityProblem(at: path) }) {
            throw NodeError(.io("the restored \(path) fails its integrity check: \(problem)"))
        }
    }

    /// What the wallet at `current` knows that the restored `copy` of it lacks.
    static func lead(
        of current: String, over copy: String, now: UInt64
    ) throws(NodeError) -> WalletLead {
        try sqlite(current) { try WalletDatabase.lead(of: current, over: copy, now: now) }
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

    /// The one place a backup's SQLite failures become node errors: a lock held too long
    /// is "busy", anything else an I/O failure naming the file.
    private static func sqlite<T>(_ path: String, _ body: () throws -> T) throws(NodeError) -> T {
        do { return try body() } catch {
            if WalletDatabase.isBusy(error) { throw NodeError(.busy("\(path) is busy; try again")) }
            throw NodeError(.io("cannot copy or check \(path): \(error)"))
        }
    }
}
