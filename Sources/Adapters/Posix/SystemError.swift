#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, and its `errno`. The one error vocabulary for system calls
/// in Tender; each module turns it into its own error kinds where it means something there.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C call that failed, e.g. "open" or "fsync".
    public let call: String
    public let code: Int32

    public init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// strerror's text, e.g. "Permission denied".
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(call): \(reason)" }

    public static let permissionDenied = EACCES
    public static let notFound = ENOENT
    public static let exists = EEXIST
    public static let isDirectory = EISDIR
    public static let notDirectory = ENOTDIR
}

/// Runs a system call until it stops failing with EINTR; any other failure is thrown with the
/// call's name. `body` returns the C result (negative on failure, errno set).
@inline(__always)
public func retryingInterrupts<Result: BinaryInteger>(
    _ call: String, _ body: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code != EINTR { throw SystemError(call, code: code) }
    }
}
