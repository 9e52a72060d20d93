/// Why a curve operation refused its input. Messages never contain key material.
public enum Secp256k1Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// A private key must be 32 bytes and a scalar in [1, n-1].
    case invalidPrivateKey
    /// Public keys are 33 (compressed) or 65 (uncompressed) bytes on the curve.
    case invalidPublicKey
    /// A recoverable signature is 65 bytes `r ‖ s ‖ v`, v ∈ {0, 1, 27, 28}.
    case malformedSignature
    /// `s` above n/2: the malleable twin of a valid signature, refused so each signature is unique.
    case nonCanonicalSignature
    /// No public key recovers from this signature and digest.
    case unrecoverableSignature
    /// A digest is exactly 32 bytes.
    case invalidDigestLength(Int)
    /// BIP32 child derivation hit the (negligible) invalid-scalar case.
    case tweakOutOfRange
    /// A scalar for point multiplication must be 32 bytes in [1, n-1].
    case scalarOutOfRange
    /// The points add up to the point at infinity, which has no encoding.
    case pointAtInfinity

    public var description: String {
        switch self {
        case .invalidPrivateKey: "private key is not a valid secp256k1 scalar"
        case .invalidPublicKey: "public key is not a valid secp256k1 point encoding"
        case .malformedSignature: "signature is not 65 bytes r‖s‖v with v in {0,1,27,28}"
        case .nonCanonicalSignature: "signature has a high s value (non-canonical)"
        case .unrecoverableSignature: "no public key recovers from this signature"
        case .invalidDigestLength(let length): "digest must be 32 bytes, got \(length)"
        case .tweakOutOfRange: "key derivation produced an invalid scalar"
        case .scalarOutOfRange: "scalar is not 32 bytes in [1, n-1]"
        case .pointAtInfinity: "the points add up to the point at infinity"
        }
    }
}
