#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// systemd's service notifications (sd_notify(3)): `READY=1` once the node serves,
/// `WATCHDOG=1` while it is alive, `STOPPING=1` on the way out, each one datagram to the
/// socket named by `$NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace). Without
/// that variable (not started by systemd with `Type=notify`) every call does nothing.
public struct SystemdNotifier: Sendable {
    public let socketPath: String?
    /// How often to ping the watchdog: half of `$WATCHDOG_USEC`, when it is set for this
    /// process (`$WATCHDOG_PID` absent or ours).
    public let watchdogInterval: Duration?

    public init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"]
        socketPath = (path?.isEmpty ?? true) ? nil : path
        if let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0,
            environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true
        {
            watchdogInterval = .microseconds(Int64(clamping: usec / 2))
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends `state` (`READY=1`, `STATUS=…`, newline-separated assignments).
    public func notify(_ state: String) throws(SystemError) {
        guard let socketPath else { return }
        let descriptor = socket(
            AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError("socket", code: errno) }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // the abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { throw SystemError("sendto", code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(
                    descriptor, message, message.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        guard sent == message.count else { throw SystemError("sendto", code: errno) }
    }
}
