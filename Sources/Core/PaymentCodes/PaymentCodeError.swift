/// Why a payment code was refused: what kind of problem, which field, and what is wrong with it.
///
/// `field` names the part of the code (`amount`, `k`, `memo`, `hrp`, `checksum`, `token`, …) so
/// a person can find the mistake; `message` says what is wrong in plain words.
public struct PaymentCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// The text does not start with the scheme or prefix of the format asked for.
        case wrongScheme = "wrong-scheme"
        /// A required field is absent.
        case missingField = "missing-field"
        /// A field this version does not define (the tender: URI refuses them; a newer
        /// version adds fields with a version bump).
        case unknownField = "unknown-field"
        /// The same field twice.
        case duplicateField = "duplicate-field"
        /// A field is present but its value is not valid.
        case malformedField = "malformed-field"
        /// A checksum (bech32, EIP-55) does not match: a mistyped or damaged code.
        case badChecksum = "bad-checksum"
        /// Well formed, but in a variant this module does not read (e.g. an unknown
        /// currency prefix or token version).
        case unsupported
        /// Longer than this module reads.
        case tooLarge = "too-large"
    }

    public let kind: Kind
    /// The part of the code that is wrong.
    public let field: String
    /// What is wrong with it.
    public let message: String

    public init(_ kind: Kind, field: String, _ message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    /// A short stable name for scripts.
    public var code: String { kind.rawValue }

    public var description: String { "\(field): \(message)" }
}
