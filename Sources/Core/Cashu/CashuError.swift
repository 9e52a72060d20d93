/// Why a Cashu token, proof, keyset or lock was refused: what kind of problem, which field, and
/// what is wrong with it, in words a person can act on.
public struct CashuError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// Not in the format the field requires (encoding, type, length).
        case malformed
        /// A required field is absent.
        case missingField = "missing-field"
        /// Well formed, but a variant this module does not read.
        case unsupported
        /// Longer than this module reads.
        case tooLarge = "too-large"
        /// A mint's signature or DLEQ proof does not check out: forged or damaged.
        case badSignature = "bad-signature"
        /// A proof names a keyset (or an amount) whose keys this wallet does not hold.
        case unknownKeyset = "unknown-keyset"
        /// A keyset's id is not the one its keys derive to (NUT-02).
        case keysetMismatch = "keyset-mismatch"
        /// The same secret twice: the second is worth nothing.
        case duplicateSecret = "duplicate-secret"
        /// A spending condition this wallet cannot satisfy or does not accept.
        case locked
    }

    public let kind: Kind
    public let field: String
    public let message: String

    public init(_ kind: Kind, field: String, _ message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    /// A short stable name for scripts.
    public var code: String { kind.rawValue }

    public var description: String { "\(field): \(message)" }

    /// As said of a token: "Cashu token proofs[0]: …", or "Cashu token: …" for the whole.
    public var ofToken: String {
        field == "token" ? "Cashu token: \(message)" : "Cashu token \(field): \(message)"
    }
}
