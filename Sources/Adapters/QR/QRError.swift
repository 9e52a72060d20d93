/// The one error of the QR module: a `kind` to switch on and a message that names what was
/// wrong (sizes, limits, chunk names), never payload bytes.
public struct QRError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The payload does not fit one code at the chosen error-correction level.
        case payloadTooLarge
        /// libqrencode refused for another reason (out of memory, invalid argument).
        case encoderFailed
        /// The image file ends before its structure says it should.
        case truncated
        /// A chunk CRC or the zlib stream's Adler-32 does not match.
        case badChecksum
        /// Well-formed, but a feature we do not read (interlacing, an unknown format).
        case unsupported
        /// The declared dimensions exceed the decoder's pixel limit; nothing was allocated.
        case imageTooLarge
        /// The bytes contradict the format (bad signature, bad header field, bad filter).
        case malformed
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
