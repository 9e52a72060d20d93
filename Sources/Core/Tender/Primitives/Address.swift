import Codecs
import Secp256k1

/// A 20-byte Ethereum-style account: the last 20 bytes of keccak256 of the uncompressed key.
///
/// Held inline (no heap): every signature checked on the verification path makes one, and every
/// coin carries three.
public struct Address: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 20 bytes in memory order: bytes 0..<8, 8..<16 and 16..<20, stored as they are.
    let words: (UInt64, UInt64, UInt32)

    public init(bytes: some Collection<UInt8>) throws(ProtocolError) {
        let count = bytes.count
        guard count == 20 else {
            throw ProtocolError(.malformed("an address is 20 bytes, got \(count)"))
        }
        self.init(unchecked: bytes)
    }

    public init(publicKey: PublicKey) {
        var hasher = Keccak256()
        hasher.update(publicKey.coordinates)
        let hash = hasher.finalizeWords()
        self = Swift.withUnsafeBytes(of: hash) { Address(raw: $0, at: 12) }
    }

    /// The 20 bytes at `offset` of `buffer`.
    private init(raw buffer: UnsafeRawBufferPointer, at offset: Int) {
        precondition(offset >= 0 && buffer.count - offset >= 20)
        words = (
            buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
            buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self),
            buffer.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self)
        )
    }

    /// Parses `0x` + 40 hex digits. All-lower or all-upper is accepted as is; mixed case must
    /// carry a valid EIP-55 checksum, so a mistyped address is caught.
    public init(_ text: String) throws(ProtocolError) {
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text
        guard digits.utf8.count == 40, let decoded = try? Hex.decode(digits) else {
            throw ProtocolError(.malformed("address '\(text)' is not 0x followed by 40 hex digits"))
        }
        self.init(unchecked: decoded)
        let hasLower = digits.contains { $0.isLowercase }
        let hasUpper = digits.contains { $0.isUppercase }
        if hasLower && hasUpper && checksummed != "0x" + digits {
            throw ProtocolError(
                .malformed("address '\(text)' fails its EIP-55 checksum (expected \(checksummed))"))
        }
    }

    public static let zero = Address(unchecked: [UInt8](repeating: 0, count: 20))

    /// For 20 bytes already counted: another length is a bug.
    init(unchecked bytes: some Collection<UInt8>) {
        precondition(bytes.count == 20)
        var raw: (UInt64, UInt64, UInt64) = (0, 0, 0)
        self = withUnsafeMutableBytes(of: &raw) { buffer in
            buffer.copyBytes(from: bytes)
            return Address(raw: UnsafeRawBufferPointer(buffer), at: 0)
        }
    }

    /// The bytes as an array (a copy: hot paths use `withUnsafeBytes`).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The 20 bytes, without copying them to the heap.
    public func withUnsafeBytes<R, E: Error>(
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        var words = self.words
        return try Swift.withUnsafeBytes(of: &words) { buffer throws(E) in
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<20]))
        }
    }

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

    public static func == (lhs: Address, rhs: Address) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
    }

    /// Bytewise order: each word read big-endian is its bytes in order.
    public static func < (lhs: Address, rhs: Address) -> Bool {
        (
            UInt64(bigEndian: lhs.words.0), UInt64(bigEndian: lhs.words.1),
            UInt32(bigEndian: lhs.words.2)
        )
            < (
                UInt64(bigEndian: rhs.words.0), UInt64(bigEndian: rhs.words.1),
                UInt32(bigEndian: rhs.words.2)
            )
    }
}
