import CSecp256k1

/// A point on secp256k1.
public struct PublicKey: Sendable, Hashable {
    /// The 64-byte X ‖ Y, big-endian: what Ethereum hashes for an address.
    public let coordinates: [UInt8]

    init(point: secp256k1_pubkey) {
        var point = point
        // Serialised on the stack (04 ‖ X ‖ Y); only X ‖ Y is copied to the heap.
        var serialized = (secp256k1_pubkey(), UInt8(0))  // 64 + 1 bytes
        coordinates = withUnsafeMutableBytes(of: &serialized) { buffer in
            let output = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var length = 65
            secp256k1_ec_pubkey_serialize(
                verifyingContext, output, &length, &point, UInt32(SECP256K1_EC_UNCOMPRESSED))
            return Array(UnsafeBufferPointer(start: output + 1, count: 64))
        }
    }

    /// Parses a 33-byte compressed or 65-byte uncompressed SEC1 encoding.
    public init(serialized bytes: some Collection<UInt8>) throws(Secp256k1Error) {
        let input = Array(bytes)
        var point = secp256k1_pubkey()
        guard input.count == 33 || input.count == 65,
            secp256k1_ec_pubkey_parse(verifyingContext, &point, input, input.count) == 1
        else { throw .invalidPublicKey }
        self.init(point: point)
    }

    /// 65 bytes, `04 ‖ X ‖ Y`.
    public var uncompressed: [UInt8] { [0x04] + coordinates }

    /// 33 bytes, `02|03 ‖ X`.
    public var compressed: [UInt8] {
        [coordinates[63] & 1 == 0 ? 0x02 : 0x03] + coordinates[0..<32]
    }
}
