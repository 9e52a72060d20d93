/// Why a fountain encoder refused its arguments or a decoder refused a part or frame.
///
/// Every decoder method that throws leaves the decoder exactly as it was before the call,
/// except `.messageChecksumMismatch`, which also resets the decoder (its collected fragments
/// cannot be trusted any more).
public struct FountainError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// A word, a pair of letters or a separator that is not Bytewords.
        case invalidBytewords
        /// A CRC32 does not match: the Bytewords body or the binary frame is corrupted.
        case checksumMismatch
        /// The input ends before what it declares (a frame shorter than its header and
        /// fragment, Bytewords shorter than their checksum).
        case truncated
        /// Not a `ur:type/…` string: wrong scheme, invalid type or wrong number of components.
        case invalidUR
        /// The `seqNum-seqLen` component of a multipart UR is malformed or disagrees with the
        /// part it carries.
        case invalidSequence
        /// The part's CBOR or the frame header is malformed or self-inconsistent (zero or
        /// out-of-range numbers, fragment length that does not fit the message length).
        case invalidPart
        /// A binary frame with an unknown magic or version.
        case unsupportedFormat
        /// The part or frame belongs to another message than the one being received (other
        /// UR type, message length, checksum, part count or fragment length).
        case mixedSequence
        /// The declared message (or its fragment count) exceeds the decoder's limits.
        case messageTooLarge
        /// All fragments were recovered but the message fails its CRC32. The decoder resets.
        case messageChecksumMismatch
        /// An encoder was given an empty message, or an unusable fragment length.
        case invalidArgument
    }

    public let kind: Kind
    /// What was wrong, for people; never contains payload bytes.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }
}
