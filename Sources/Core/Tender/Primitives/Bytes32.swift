import Codecs

/// A 32-byte value: a digest, a serial, a coin id, a request id.
public struct Bytes32: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(_ bytes: some Collection<UInt8>) throws(ProtocolError) {
        let value = Array(bytes)
        guard value.count == 32 else {
            throw ProtocolError(.malformed("expected 32 bytes, got \(value.count)"))
        }
        self.bytes = value
    }

    /// For values this module computed itself (hash outputs): a wrong length is a bug.
    init(trusted bytes: [UInt8]) {
        precondition(bytes.count == 32)
        self.bytes = bytes
    }

    public init(hex: String) throws(ProtocolError) {
        do { try self.init(Hex.decode(hex)) } catch let error as HexError {
            throw ProtocolError(.malformed("bad hex: \(error)"))
        } catch { throw error as! ProtocolError }
    }

    public static let zero = Bytes32(trusted: [UInt8](repeating: 0, count: 32))

    /// 32 bytes from a generator: request ids, serials, salts.
    public static func random(using generator: inout some RandomNumberGenerator) -> Bytes32 {
        Bytes32(trusted: (0..<32).map { _ in generator.next() })
    }

    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }

    /// Hashes the bytes in one call rather than byte by byte (coin ids key every dictionary
    /// on the verification path).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    public static func < (lhs: Bytes32, rhs: Bytes32) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}

/// Coin ids are `keccak256(digest ‖ uint32 index)`; a distinct name keeps signatures readable.
public typealias CoinID = Bytes32
