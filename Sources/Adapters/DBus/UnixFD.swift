import Posix

#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor carried in a D-Bus message (type `h`), owned by this value: closed when
/// the last reference goes. BlueZ hands out sockets this way (AcquireWrite, AcquireNotify).
public final class UnixFD: Sendable, Hashable {
    public let rawValue: Int32

    /// Takes ownership of `rawValue`.
    public init(owning rawValue: Int32) { self.rawValue = rawValue }

    deinit { close(rawValue) }

    /// A descriptor of one's own (`dup`), for code that owns descriptors as `FileDescriptor`.
    public func duplicate() throws(SystemError) -> FileDescriptor {
        FileDescriptor(
            owning: try retryingInterrupts("fcntl") { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) })
    }

    public static func == (lhs: UnixFD, rhs: UnixFD) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
