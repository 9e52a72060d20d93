import CSecp256k1

/// An ECDSA signature with its recovery id: the 65-byte `r ‖ s ‖ v` form of Ethereum,
/// with `v = 27 + recoveryID` as `ecrecover` and eth-account expect.
public struct RecoverableSignature: Sendable, Hashable {
    /// `r ‖ s`, 64 bytes: the form libsecp256k1 parses, kept whole so recovery allocates less.
    let compact: [UInt8]
    /// 0 or 1.
    public let recoveryID: UInt8

    public var r: [UInt8] { Array(compact[0..<32]) }
    public var s: [UInt8] { Array(compact[32..<64]) }

    init(compact: [UInt8], recoveryID: UInt8) {
        self.compact = compact
        self.recoveryID = recoveryID
    }

    /// Parses `r ‖ s ‖ v` (v ∈ {0, 1, 27, 28}); refuses high-s twins.
    public init(bytes: some Collection<UInt8>) throws(Secp256k1Error) {
        let input = Array(bytes)
        guard input.count == 65 else { throw .malformedSignature }
        let v = input[64]
        let recoveryID: UInt8
        switch v {
        case 0, 1: recoveryID = v
        case 27, 28: recoveryID = v - 27
        default: throw .malformedSignature
        }
        var parsed = secp256k1_ecdsa_recoverable_signature()
        guard
            secp256k1_ecdsa_recoverable_signature_parse_compact(
                verifyingContext, &parsed, Array(input[0..<64]), Int32(recoveryID)) == 1
        else { throw .malformedSignature }
        var plain = secp256k1_ecdsa_signature()
        secp256k1_ecdsa_recoverable_signature_convert(verifyingContext, &plain, &parsed)
        // normalize returns 1 when the input had a high s.
        guard secp256k1_ecdsa_signature_normalize(verifyingContext, nil, &plain) == 0 else {
            throw .nonCanonicalSignature
        }
        self.init(compact: Array(input[0..<64]), recoveryID: recoveryID)
    }

    /// `r ‖ s ‖ (27 + recoveryID)`.
    public var bytes: [UInt8] { compact + [27 + recoveryID] }

    /// The signer's public key, as `ecrecover` would find it. On the verification hot path:
    /// nothing is copied but the result.
    public func recoverPublicKey(digest: some Collection<UInt8>) throws(Secp256k1Error) -> PublicKey
    {
        PublicKey(point: try recoverPoint(digest: digest))
    }

    /// The signer's key as `recoverPublicKey` finds it, its 64-byte X ‖ Y handed to `body` from
    /// the stack: a verifier that only hashes the key into an address builds no `PublicKey`.
    public func withRecoveredCoordinates<Result>(
        digest: some Collection<UInt8>, _ body: (UnsafeRawBufferPointer) -> Result
    ) throws(Secp256k1Error) -> Result {
        var point = try recoverPoint(digest: digest)
        var serialized = (secp256k1_pubkey(), UInt8(0))  // 04 ‖ X ‖ Y: 64 + 1 bytes
        return withUnsafeMutableBytes(of: &serialized) { buffer in
            let output = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var length = 65
            secp256k1_ec_pubkey_serialize(
                verifyingContext, output, &length, &point, UInt32(SECP256K1_EC_UNCOMPRESSED))
            return body(UnsafeRawBufferPointer(start: output + 1, count: 64))
        }
    }

    private func recoverPoint(
        digest: some Collection<UInt8>
    ) throws(Secp256k1Error) -> secp256k1_pubkey {
        guard digest.count == 32 else { throw .invalidDigestLength(digest.count) }
        var parsed = secp256k1_ecdsa_recoverable_signature()
        guard
            secp256k1_ecdsa_recoverable_signature_parse_compact(
                verifyingContext, &parsed, compact, Int32(recoveryID)) == 1
        else { throw .malformedSignature }
        var point = secp256k1_pubkey()
        let recovered =
            digest.withContiguousStorageIfAvailable { message in
                secp256k1_ecdsa_recover(verifyingContext, &point, &parsed, message.baseAddress!)
            } ?? secp256k1_ecdsa_recover(verifyingContext, &point, &parsed, Array(digest))
        guard recovered == 1 else { throw .unrecoverableSignature }
        return point
    }

    /// Plain ECDSA verification against a known key (used by benchmarks as the raw baseline).
    public func isValid(digest: some Collection<UInt8>, publicKey: PublicKey) -> Bool {
        let message = Array(digest)
        guard message.count == 32 else { return false }
        var plain = secp256k1_ecdsa_signature()
        guard
            secp256k1_ecdsa_signature_parse_compact(verifyingContext, &plain, compact) == 1
        else { return false }
        var point = secp256k1_pubkey()
        let encoded = publicKey.uncompressed
        guard secp256k1_ec_pubkey_parse(verifyingContext, &point, encoded, encoded.count) == 1
        else { return false }
        return secp256k1_ecdsa_verify(verifyingContext, &plain, message, &point) == 1
    }
}
