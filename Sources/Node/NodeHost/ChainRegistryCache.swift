import Glibc
import NodeKit
import Settlement
import Synchronization

/// The chain registry as last read, read again only when `chains.toml` changed (another
/// inode, size or modification time: `tender chain add` replaces the file atomically). A
/// node shows amounts in the chain's coin in answers it gives thousands of times a second;
/// one `stat` each, not a TOML parse.
final class ChainRegistryCache: Sendable {
    private struct Stamp: Equatable {
        var inode: UInt
        var size: Int
        var seconds: Int
        var nanoseconds: Int
    }

    private let last = Mutex<(stamp: Stamp?, registry: ChainRegistry)?>(nil)

    func registry(at path: String) throws(NodeError) -> ChainRegistry {
        let stamp = Self.stamp(path)
        if let cached = last.withLock({ $0 }), cached.stamp == stamp, stamp != nil {
            return cached.registry
        }
        let registry = try ChainRegistryFile.load(path)
        last.withLock { $0 = (stamp, registry) }
        return registry
    }

    /// nil when the file cannot be looked at (absent): read each time, it is cheap then.
    private static func stamp(_ path: String) -> Stamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Stamp(
            inode: UInt(status.st_ino), size: Int(status.st_size),
            seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec))
    }
}
