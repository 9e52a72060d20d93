#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Every system call of the module, one thin wrapper each: EINTR is retried, failures come back as
// `SystemCallError` with errno, which the key-file code turns into `KeystoreError` kinds.
// Foundation's file APIs are not used for writing because they can neither create a file with a
// given mode (they chmod afterwards) nor fsync the file and its directory.

/// A failed system call: which one and errno.
struct SystemCallError: Error {
    let call: String
    let code: Int32

    /// strerror's text, e.g. "Permission denied".
    var reason: String { String(cString: strerror(code)) }
}

enum SystemCalls {
    /// Runs `body` until it stops failing with EINTR.
    private static func retrying<Result: BinaryInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno != EINTR { throw SystemCallError(call: call, code: errno) }
        }
    }

    /// `open(path, O_RDONLY | O_CLOEXEC)`.
    static func openForReading(_ path: String) throws(SystemCallError) -> Int32 {
        try retrying("open") { open(path, O_RDONLY | O_CLOEXEC) }
    }

    /// `open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)`, for fsync of a directory.
    static func openDirectory(_ path: String) throws(SystemCallError) -> Int32 {
        try retrying("open") { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    }

    /// `open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)`: a new file that
    /// has `mode` (less the umask) from its first instant, never a pre-existing one or a symlink.
    static func createExclusive(_ path: String, mode: mode_t) throws(SystemCallError) -> Int32 {
        try retrying("open") {
            open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        }
    }

    /// Reads to end of file, refusing more than `limit` bytes.
    /// Returns nil when the file is longer than `limit`.
    static func readAll(_ descriptor: Int32, limit: Int) throws(SystemCallError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try retrying("read") {
                chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { return nil }
        }
    }

    /// Writes every byte, looping over short writes.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            offset += try retrying("write") {
                bytes.withUnsafeBytes {
                    write(descriptor, $0.baseAddress! + offset, $0.count - offset)
                }
            }
        }
    }

    static func fileSync(_ descriptor: Int32) throws(SystemCallError) {
        _ = try retrying("fsync") { fsync(descriptor) }
    }

    /// `close`. Not retried on EINTR: on Linux the descriptor is released even then, and a
    /// retry could close a descriptor another thread has just been given.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Atomically replaces `destination` (if any) with `source`.
    static func renameReplacing(_ source: String, _ destination: String) throws(SystemCallError) {
        _ = try retrying("rename") { rename(source, destination) }
    }

    /// A second name for `source`; fails with EEXIST, atomically, when `destination` exists.
    static func hardLink(_ source: String, _ destination: String) throws(SystemCallError) {
        _ = try retrying("link") { link(source, destination) }
    }

    static func removeFile(_ path: String) {
        _ = unlink(path)
    }

    /// The permission bits (`st_mode & 0o7777`) of the file at `path`, following symlinks.
    static func permissions(_ path: String) throws(SystemCallError) -> mode_t {
        var info = stat()
        _ = try retrying("stat") { stat(path, &info) }
        return info.st_mode & 0o7777
    }
}
