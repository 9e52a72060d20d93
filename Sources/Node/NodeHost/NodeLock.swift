import Foundation
import NodeKit

/// An exclusive `flock` on a file, held while this object lives (the kernel drops it when the
/// process ends, however it ends).
public final class FileLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock of `path` (made 0600), waiting for it when `wait`, else saying `busy`
    /// when another process holds it.
    public init(_ path: String, wait: Bool, busy: String) throws(NodeError) {
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        // A lock file this user may not write (another user's node made it) or on read-only
        // media locks all the same through a read-only descriptor: flock needs no write.
        if descriptor < 0, errno == EACCES || errno == EROFS {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw NodeError(.io("cannot open \(path): \(String(cString: strerror(errno)))"))
        }
        guard flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) == 0 else {
            let code = errno
            close(descriptor)
            throw code == EWOULDBLOCK
                ? NodeError(.busy(busy))
                : NodeError(.io("cannot lock \(path): \(String(cString: strerror(code)))"))
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}

extension DataDirectory {
    /// One node per data directory: two would run two sync loops with one key and one nonce
    /// sequence, and answer one Bluetooth name twice.
    public func lockForNode() throws(NodeError) -> FileLock {
        try FileLock(
            path + "/" + Names.nodeLock, wait: false,
            busy: "another node is running on \(path)")
    }

    /// One settler of the wallets at a time: the node's sync loop or a sync run by hand; two
    /// would send with one key and one nonce sequence side by side. `busy` says who holds it,
    /// in the words of the front end that asks.
    public func lockForSync(busy: String) throws(NodeError) -> FileLock {
        try FileLock(path + "/" + Names.syncLock, wait: false, busy: busy)
    }

    /// One Cashu settler or splitter at a time: two would each take the other's swap in
    /// flight for one cut short and undo it. A second waits for the first; or, not `waiting`
    /// (the node, which must not hold a thread of its pool), is told `.busy`.
    public func lockForCashu(waiting: Bool = true) throws(NodeError) -> FileLock {
        try FileLock(
            path + "/" + Names.cashu + ".lock", wait: waiting,
            busy: "another process is swapping Cashu tokens in \(path)")
    }

    /// One issuance at a time from an issuer's folder: what is outstanding is read, checked
    /// against the collateral and recorded before another call reads it.
    public func lockForIssuing() throws(NodeError) -> FileLock {
        try FileLock(path + "/" + Names.issued + ".lock", wait: true, busy: "")
    }
}
