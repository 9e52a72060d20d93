#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One owned file descriptor. Non-copyable, so ownership cannot be duplicated by accident, and
/// `close()` consumes it, so a double close does not compile; `deinit` closes (and asserts in
/// debug builds) a descriptor that was never closed.
public struct FileDescriptor: ~Copyable {
    public private(set) var raw: Int32

    /// Takes ownership of `raw`.
    public init(owning raw: Int32) { self.raw = raw }

    /// `close`. Not retried on EINTR: Linux releases the descriptor even then, and a retry
    /// could close a descriptor another thread has just been given.
    public consuming func close() {
        _ = closeDescriptor(raw)
        raw = -1
        discard self
    }

    deinit {
        assert(raw < 0, "file descriptor \(raw) leaked")
        if raw >= 0 { _ = closeDescriptor(raw) }
    }

    /// `open(path, flags, mode)` with O_CLOEXEC added.
    public static func open(
        _ path: String, _ flags: Int32, mode: mode_t = 0
    ) throws(SystemError) -> FileDescriptor {
        let fd = try retryingInterrupts("open") { openFile(path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(owning: fd)
    }

    /// Opens `path`, runs `body` with the descriptor and closes it, whatever `body` does.
    public static func withOpened<T>(
        _ path: String, _ flags: Int32, mode: mode_t = 0,
        _ body: (borrowing FileDescriptor) throws(SystemError) -> T
    ) throws(SystemError) -> T {
        let descriptor = try open(path, flags, mode: mode)
        let result: Result<T, SystemError>
        do throws(SystemError) { result = .success(try body(descriptor)) } catch {
            result = .failure(error)
        }
        descriptor.close()
        return try result.get()
    }

    /// Reads to end of file; nil when there are more than `limit` bytes (it stops reading
    /// there, so an endless file costs `limit` + one chunk).
    public func readAll(limit: Int) throws(SystemError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try retryingInterrupts("read") {
                chunk.withUnsafeMutableBytes { readDescriptor(raw, $0.baseAddress, $0.count) }
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { return nil }
        }
    }

    /// Writes every byte of a blocking descriptor, looping over short writes.
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            offset += try retryingInterrupts("write") {
                bytes.withUnsafeBytes {
                    writeDescriptor(raw, $0.baseAddress! + offset, $0.count - offset)
                }
            }
        }
    }

    public func sync() throws(SystemError) {
        _ = try retryingInterrupts("fsync") { fsync(raw) }
    }

    /// Waits until the descriptor is ready for `events` (POLLIN, POLLOUT) or `milliseconds`
    /// pass. Returns false on timeout.
    public func wait(for events: Int16, milliseconds: Int32) throws(SystemError) -> Bool {
        var entry = pollfd(fd: raw, events: events, revents: 0)
        return try retryingInterrupts("poll") { poll(&entry, 1, milliseconds) } > 0
    }
}

// The C names clash with members of `FileDescriptor`; these forward to them.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
private func writeDescriptor(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
