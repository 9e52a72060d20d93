import Codecs

/// A 32-byte value: a digest, a serial, a coin id, a request id.
///
/// Held inline (four words, no heap): a proof's verification makes and compares digests and coin
/// ids by the dozen, and an array each cost an allocation and reference counting on every copy.
public struct Bytes32: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 32 bytes in memory order: stored as they are, the words are the bytes on any host.
    let words: (UInt64, UInt64, UInt64, UInt64)

    public init(_ bytes: some Collection<UInt8>) throws(ProtocolError) {
        let count = bytes.count
        guard count == 32 else {
            throw ProtocolError(.malformed("expected 32 bytes, got \(count)"))
        }
        self.init(trusted: bytes)
    }

    /// For values this module computed itself (hash outputs): a wrong length is a bug.
    init(trusted bytes: some Collection<UInt8>) {
        precondition(bytes.count == 32)
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: bytes) }
        self.words = words
    }

    /// The digest `Keccak256.finalizeWords` returns.
    init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

    public init(hex: String) throws(ProtocolError) {
        do { try self.init(Hex.decode(hex)) } catch let error as HexError {
            throw ProtocolError(.malformed("bad hex: \(error)"))
        } catch { throw error as! ProtocolError }
    }

    public static let zero = Bytes32(words: (0, 0, 0, 0))

    /// 32 bytes from a generator: request ids, serials, salts.
    public static func random(using generator: inout some RandomNumberGenerator) -> Bytes32 {
        Bytes32(trusted: (0..<32).map { _ in generator.next() as UInt8 })
    }

    /// The bytes as an array (a copy: hot paths use `withUnsafeBytes`).
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The 32 bytes, without copying them to the heap.
    public func withUnsafeBytes<R, E: Error>(
        _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        var words = self.words
        return try Swift.withUnsafeBytes(of: &words) { buffer throws(E) in try body(buffer) }
    }

    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }

    public static func == (lhs: Bytes32, rhs: Bytes32) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
            && lhs.words.3 == rhs.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    /// Bytewise order: each word read big-endian is its eight bytes in order.
    public static func < (lhs: Bytes32, rhs: Bytes32) -> Bool {
        let left = (
            UInt64(bigEndian: lhs.words.0), UInt64(bigEndian: lhs.words.1),
            UInt64(bigEndian: lhs.words.2), UInt64(bigEndian: lhs.words.3)
        )
        let right = (
            UInt64(bigEndian: rhs.words.0), UInt64(bigEndian: rhs.words.1),
            UInt64(bigEndian: rhs.words.2), UInt64(bigEndian: rhs.words.3)
        )
        return left < right
    }
}

/// Coin ids are `keccak256(digest ‖ uint32 index)`; a distinct name keeps signatures readable.
public typealias CoinID = Bytes32

extension Keccak256 {
    /// Absorbs the 32 bytes without an array.
    mutating func update(_ value: Bytes32) {
        value.withUnsafeBytes { update($0) }
    }

    /// The digest, inline.
    consuming func finalizeBytes32() -> Bytes32 { Bytes32(words: finalizeWords()) }
}
