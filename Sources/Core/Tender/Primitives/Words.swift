import Codecs

/// Feeds 32-byte ABI words straight into a hasher: EIP-712 struct hashing is on the
/// verification hot path, and building a 32-byte array per field costs more than hashing it.
extension Keccak256 {
    private static let addressPadding = [UInt8](repeating: 0, count: 12)

    mutating func updateWord(_ address: Address) {
        update(Self.addressPadding)
        update(address.bytes)
    }

    mutating func updateWord(_ value: UInt128) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (
            0, 0, UInt64(truncatingIfNeeded: value >> 64).bigEndian,
            UInt64(truncatingIfNeeded: value).bigEndian
        )
        withUnsafeBytes(of: &words) { update($0) }
    }

    mutating func updateWord(_ value: UInt64) { updateWord(UInt128(value)) }
}
