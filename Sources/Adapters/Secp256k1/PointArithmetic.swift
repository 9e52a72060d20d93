import CSecp256k1

/// Group arithmetic on points, for protocols built on it (Cashu's blind signatures and their
/// DLEQ proofs, Docs/CASHU.md). A result at infinity is an error: no caller can use it.
extension PublicKey {
    /// The library's internal form, rebuilt from the coordinates (cannot fail: they came from a
    /// valid point).
    var point: secp256k1_pubkey {
        var point = secp256k1_pubkey()
        let encoded = uncompressed
        precondition(secp256k1_ec_pubkey_parse(verifyingContext, &point, encoded, 65) == 1)
        return point
    }

    /// `scalar · G`, for any scalar in [1, n-1] (32 bytes, big-endian).
    public static func generatorMultiple(
        _ scalar: some Collection<UInt8>
    ) throws(Secp256k1Error) -> PublicKey {
        let bytes = Array(scalar)
        var point = secp256k1_pubkey()
        guard bytes.count == 32,
            secp256k1_ec_pubkey_create(signingContext.pointer, &point, bytes) == 1
        else { throw .scalarOutOfRange }
        return PublicKey(point: point)
    }

    /// `scalar · self`, for a scalar in [1, n-1] (32 bytes, big-endian).
    public func multiplied(by scalar: some Collection<UInt8>) throws(Secp256k1Error) -> PublicKey {
        let bytes = Array(scalar)
        var point = self.point
        guard bytes.count == 32, secp256k1_ec_pubkey_tweak_mul(verifyingContext, &point, bytes) == 1
        else { throw .scalarOutOfRange }
        return PublicKey(point: point)
    }

    /// `self + other`.
    public func adding(_ other: PublicKey) throws(Secp256k1Error) -> PublicKey {
        let left = point
        let right = other.point
        var sum = secp256k1_pubkey()
        let combined = withUnsafePointer(to: left) { leftPointer in
            withUnsafePointer(to: right) { rightPointer in
                var points: [UnsafePointer<secp256k1_pubkey>?] = [leftPointer, rightPointer]
                return secp256k1_ec_pubkey_combine(verifyingContext, &sum, &points, 2)
            }
        }
        guard combined == 1 else { throw .pointAtInfinity }
        return PublicKey(point: sum)
    }

    /// `-self`.
    public var negated: PublicKey {
        var point = self.point
        // Cannot fail on a valid point.
        precondition(secp256k1_ec_pubkey_negate(verifyingContext, &point) == 1)
        return PublicKey(point: point)
    }

    /// `self - other`.
    public func subtracting(_ other: PublicKey) throws(Secp256k1Error) -> PublicKey {
        try adding(other.negated)
    }
}
