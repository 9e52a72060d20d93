#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Non-blocking descriptors (printers, sockets, FIFOs): every wait bounded by a deadline.
extension FileDescriptor {
    /// How a bounded write ended.
    public enum WriteOutcome: Equatable, Sendable {
        case done
        case timedOut(written: Int)
        case failed(SystemError, written: Int)
    }

    /// Sets O_NONBLOCK.
    public func makeNonBlocking() throws(SystemError) {
        let flags = try retryingInterrupts("fcntl") { fcntl(raw, F_GETFL) }
        _ = try retryingInterrupts("fcntl") { fcntl(raw, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Waits until ready for `events` or the deadline passes; false on timeout.
    public func wait(for events: Int16, until deadline: Deadline) throws(SystemError) -> Bool {
        while true {
            if deadline.hasPassed { return false }
            if try wait(for: events, milliseconds: deadline.remaining) { return true }
        }
    }

    /// Writes all of `bytes` to a non-blocking descriptor, waiting for it to become writable
    /// until the deadline. A socket is written with `send(MSG_NOSIGNAL)`, so a closed peer gives
    /// EPIPE rather than a SIGPIPE that would kill the process.
    public func writeAll(_ bytes: [UInt8], until deadline: Deadline, socket: Bool) -> WriteOutcome {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                let base = buffer.baseAddress! + written
                let remaining = buffer.count - written
                if socket { return send(raw, base, remaining, noSignal) }
                return write(raw, base, remaining)
            }
            if count > 0 {
                written += count
                continue
            }
            let code = count < 0 ? errno : EIO
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else {
                return .failed(SystemError(socket ? "send" : "write", code: code), written: written)
            }
            do {
                guard try wait(for: Int16(POLLOUT), until: deadline) else {
                    return .timedOut(written: written)
                }
            } catch { return .failed(error, written: written) }
        }
        return .done
    }
}

#if os(Linux)
private let noSignal = Int32(MSG_NOSIGNAL)
#else
private let noSignal: Int32 = 0  // Darwin: SO_NOSIGPIPE is set on the socket instead
#endif
