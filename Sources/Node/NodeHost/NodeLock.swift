import Foundation
import NodeKit

/// One node per data directory: two would run two sync loops with one key and one nonce
/// sequence, and answer one Bluetooth name twice. An exclusive `flock` on `node.lock`, held
/// while the process lives (the kernel drops it when the process ends, however it ends).
public final class NodeLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock of `directory`, or says that another node holds it.
    public init(_ directory: DataDirectory) throws(NodeError) {
        let path = directory.path + "/" + DataDirectory.Names.nodeLock
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw NodeError(.io("cannot open \(path): \(String(cString: strerror(errno)))"))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            throw code == EWOULDBLOCK
                ? NodeError(.busy("another node is running on \(directory.path)"))
                : NodeError(.io("cannot lock \(path): \(String(cString: strerror(code)))"))
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
