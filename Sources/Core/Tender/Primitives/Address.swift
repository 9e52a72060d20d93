import Codecs
import Secp256k1

/// A 20-byte Ethereum-style account: the last 20 bytes of keccak256 of the uncompressed key.
public struct Address: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(bytes: some Collection<UInt8>) throws(ProtocolError) {
        let value = Array(bytes)
        guard value.count == 20 else {
            throw ProtocolError(.malformed("an address is 20 bytes, got \(value.count)"))
        }
        self.bytes = value
    }

    public init(publicKey: PublicKey) {
        let hash = Keccak256.hash(publicKey.coordinates)
        bytes = hash.withUnsafeBufferPointer { Array($0[12..<32]) }
    }

    /// Parses `0x` + 40 hex digits. All-lower or all-upper is accepted as is; mixed case must
    /// carry a valid EIP-55 checksum, so a mistyped address is caught.
    public init(_ text: String) throws(ProtocolError) {
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text
        guard digits.utf8.count == 40, let decoded = try? Hex.decode(digits) else {
            throw ProtocolError(.malformed("address '\(text)' is not 0x followed by 40 hex digits"))
        }
        self.bytes = decoded
        let hasLower = digits.contains { $0.isLowercase }
        let hasUpper = digits.contains { $0.isUppercase }
        if hasLower && hasUpper && checksummed != "0x" + digits {
            throw ProtocolError(
                .malformed("address '\(text)' fails its EIP-55 checksum (expected \(checksummed))"))
        }
    }

    public static let zero = Address(unchecked: [UInt8](repeating: 0, count: 20))

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// EIP-55 mixed-case checksum encoding.
    public var checksummed: String {
        let lower = Hex.encode(bytes, prefix: false)
        let hash = Keccak256.hash(Array(lower.utf8))
        var result = "0x"
        for (index, character) in lower.enumerated() {
            let nibble = (hash[index / 2] >> (index % 2 == 0 ? 4 : 0)) & 0x0F
            result.append(nibble >= 8 ? Character(character.uppercased()) : character)
        }
        return result
    }

    public var description: String { checksummed }

    /// Hashes the bytes in one call rather than byte by byte (coin ids key every dictionary
    /// on the verification path).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func < (lhs: Address, rhs: Address) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
