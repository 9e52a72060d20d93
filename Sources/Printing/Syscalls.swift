#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every system call of the module, one wrapper each: EINTR retried, failures returned as
/// `errno` values, descriptors owned by `Descriptor`.
/// An `errno` value as an `Error`, for `Result`.
struct Errno: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
}

enum Syscall {
    static func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A monotonic clock in milliseconds, for deadlines.
    static func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    static func sleepMilliseconds(_ milliseconds: Int) {
        var spec = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&spec, &remaining) == -1 && errno == EINTR { spec = remaining }
    }
}

/// One owned file descriptor; `close()` must be called (the `deinit` checks in debug builds).
/// Non-copyable so ownership cannot be duplicated by accident.
struct Descriptor: ~Copyable {
    private(set) var raw: Int32

    init(_ raw: Int32) { self.raw = raw }

    consuming func close() {
        _ = systemClose(raw)
        raw = -1
        discard self
    }

    deinit {
        assert(raw < 0, "descriptor \(raw) leaked")
        if raw >= 0 { _ = systemClose(raw) }
    }

    /// open(2) without O_CREAT or O_TRUNC: an existing device or file only, never replaced.
    static func open(_ path: String, flags: Int32) -> Result<Descriptor, Errno> {
        while true {
            let fd = path.withCString { systemOpen($0, flags) }
            if fd >= 0 { return .success(Descriptor(fd)) }
            if errno != EINTR { return .failure(Errno(errno)) }
        }
    }

    /// Waits until the descriptor is ready for `events` or the deadline passes. Returns false
    /// on timeout.
    func wait(for events: Int16, until deadline: Int64) -> Result<Bool, Errno> {
        while true {
            let remaining = deadline - Syscall.nowMilliseconds()
            if remaining <= 0 { return .success(false) }
            var entry = pollfd(fd: raw, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining, Int64(Int32.max))))
            if ready > 0 { return .success(true) }
            if ready == 0 { return .success(false) }
            if errno != EINTR { return .failure(Errno(errno)) }
        }
    }

    /// Writes all of `bytes` to a non-blocking descriptor, waiting for it to become writable
    /// until the deadline. Sockets are written with `send` so a closed peer gives EPIPE, not
    /// SIGPIPE.
    func writeAll(_ bytes: [UInt8], until deadline: Int64, socket: Bool) -> WriteOutcome {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                let base = buffer.baseAddress! + written
                let remaining = buffer.count - written
                if socket { return send(raw, base, remaining, Syscall.noSignal) }
                return systemWrite(raw, base, remaining)
            }
            if count > 0 {
                written += count
                continue
            }
            let code = errno
            if count < 0 && code == EINTR { continue }
            if count < 0 && (code == EAGAIN || code == EWOULDBLOCK) {
                switch wait(for: Int16(POLLOUT), until: deadline) {
                case .success(true): continue
                case .success(false): return .timedOut(written: written)
                case .failure(let error): return .failed(error.code, written: written)
                }
            }
            return .failed(count < 0 ? code : EIO, written: written)
        }
        return .done
    }

    enum WriteOutcome {
        case done
        case timedOut(written: Int)
        case failed(Int32, written: Int)
    }
}

extension Syscall {
    #if os(Linux)
    static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    static let noSignal: Int32 = 0  // Darwin: SO_NOSIGPIPE is set on the socket instead
    #endif
}

// The C names clash with members of `Descriptor`; these forward to them.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
