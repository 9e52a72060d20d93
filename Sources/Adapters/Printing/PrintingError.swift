/// The one error type of the Printing module: a precise `kind` to `catch` on and a message
/// for people. Messages name paths, hosts and byte offsets, never payload contents (a payment
/// request is not a secret, but logs are not the place for it either).
public struct PrintingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// An ESC/POS stream that `ESCPOS.renderRaster` cannot parse: unknown or truncated
        /// command, raster block with impossible dimensions or too little data.
        case malformedStream
        /// A device path that cannot be opened for writing (missing, not writable, no reader
        /// on a FIFO within the timeout).
        case deviceUnavailable
        /// A host that cannot be resolved or does not accept the connection.
        case connectionFailed
        /// Writing to a device or socket failed part-way (the printer may have printed part
        /// of the job).
        case writeFailed
        /// The printer did not accept the bytes (or the connection) within the timeout.
        case timedOut
        /// The CUPS client `lp` is not installed (not found on PATH).
        case spoolerMissing
        /// `lp` ran and reported a failure (unknown queue, scheduler not running, …).
        case spoolerFailed
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
