import Crypto

/// xoshiro256** 1.0 (Blackman and Vigna), seeded as BC-UR seeds it: the state is the SHA-256
/// of the seed bytes, read as four big-endian 64-bit words.
///
/// The derived draws (`nextDouble`, `nextInt`, `nextByte`) follow BC-UR bit for bit, including
/// its rounding: `nextDouble` is `Double(next()) / 2^64`, which rounds to 1.0 for the top
/// 2^10 outputs. Callers that index with it clamp (the reference would read out of bounds in
/// that case, probability about 2^-54 a draw).
struct Xoshiro256: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    init(seed bytes: [UInt8]) {
        let digest = Array(SHA256.hash(data: bytes))
        func word(_ index: Int) -> UInt64 {
            var value: UInt64 = 0
            for byte in digest[(index * 8)..<(index * 8 + 8)] { value = value << 8 | UInt64(byte) }
            return value
        }
        s0 = word(0)
        s1 = word(1)
        s2 = word(2)
        s3 = word(3)
    }

    /// Seeded with the UTF-8 bytes of `string` (BC-UR's `Xoshiro256("Wolf")`).
    init(string: String) {
        self.init(seed: Array(string.utf8))
    }

    /// Seeded with the four big-endian bytes of `crc32`.
    init(crc32: UInt32) {
        self.init(seed: BigEndian.bytes(crc32))
    }

    @inline(__always)
    private static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }

    mutating func next() -> UInt64 {
        let result = Self.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotl(s3, 45)
        return result
    }

    /// In [0, 1], as BC-UR computes it.
    mutating func nextDouble() -> Double {
        Double(next()) / (Double(UInt64.max) + 1)
    }

    /// In low...high (high + 1 in the rare case `nextDouble` returns 1.0, as in BC-UR).
    mutating func nextInt(_ low: UInt64, _ high: UInt64) -> UInt64 {
        UInt64(nextDouble() * Double(high - low + 1)) + low
    }

    mutating func nextByte() -> UInt8 {
        UInt8(truncatingIfNeeded: nextInt(0, 255))
    }

    mutating func nextData(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in nextByte() }
    }
}
