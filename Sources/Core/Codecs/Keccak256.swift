/// Ethereum's keccak-256: Keccak[c=512] with the original Keccak padding (0x01 … 0x80), not
/// SHA3-256's 0x06. Streaming: `update` any number of times, then `finalize` once.
///
/// The sponge state is 25 lanes held inline (no heap), so a hash allocates only its 32-byte
/// result. Input bytes are XORed straight into the state, so there is no block buffer either.
public struct Keccak256: Sendable {
    /// Bytes absorbed per permutation: (1600 - 2 × 256) / 8.
    static let rate = 136

    @usableFromInline var lanes: KeccakLanes
    /// Bytes of the current block already absorbed (0 ..< rate).
    @usableFromInline var position: Int

    @inlinable
    public init() {
        lanes = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        position = 0
    }

    @inlinable
    public mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var source = buffer.baseAddress else { return }
        var count = buffer.count
        if position > 0 {
            let take = min(Self.rate - position, count)
            xor(source, count: take, at: position)
            position += take
            source += take
            count -= take
            guard position == Self.rate else { return }
            keccakF1600(&lanes)
            position = 0
        }
        while count >= Self.rate {
            xor(source, count: Self.rate, at: 0)
            keccakF1600(&lanes)
            source += Self.rate
            count -= Self.rate
        }
        if count > 0 {
            xor(source, count: count, at: 0)
            position = count
        }
    }

    /// The 32-byte digest.
    public consuming func finalize() -> [UInt8] {
        let words = squeeze()
        return withUnsafeBytes(of: words) { Array($0) }
    }

    /// The 32-byte digest, written at `digest` (no array).
    public consuming func finalize(into digest: UnsafeMutablePointer<UInt8>) {
        let words = squeeze()
        withUnsafeBytes(of: words) {
            UnsafeMutableRawPointer(digest).copyMemory(from: $0.baseAddress!, byteCount: 32)
        }
    }

    /// The digest's four lanes, in little-endian byte order.
    private mutating func squeeze() -> (UInt64, UInt64, UInt64, UInt64) {
        // Keccak's pad10*1 with the 0x01 domain bit; both land in one byte when position is 135.
        var padding: (UInt8, UInt8) = (0x01, 0x80)
        withUnsafeBytes(of: &padding) { pad in
            xor(pad.baseAddress!, count: 1, at: position)
            xor(pad.baseAddress! + 1, count: 1, at: Self.rate - 1)
        }
        keccakF1600(&lanes)
        return (
            lanes.0.littleEndian, lanes.1.littleEndian, lanes.2.littleEndian,
            lanes.3.littleEndian
        )
    }

    @inlinable
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = Keccak256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// XORs `count` bytes into the state starting at byte `offset` of the block, little-endian
    /// within each lane (so the result is the same on big-endian hosts).
    @inline(__always)
    private mutating func xor(_ source: UnsafeRawPointer, count: Int, at offset: Int) {
        withUnsafeMutablePointer(to: &lanes) { tuple in
            tuple.withMemoryRebound(to: UInt64.self, capacity: 25) { lane in
                var i = 0
                var at = offset
                while i < count, at & 7 != 0 {
                    lane[at >> 3] ^=
                        UInt64(source.load(fromByteOffset: i, as: UInt8.self)) &<< ((at & 7) &* 8)
                    i += 1
                    at += 1
                }
                while count - i >= 8 {
                    lane[at >> 3] ^= UInt64(
                        littleEndian: source.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    i += 8
                    at += 8
                }
                while i < count {
                    lane[at >> 3] ^=
                        UInt64(source.load(fromByteOffset: i, as: UInt8.self)) &<< ((at & 7) &* 8)
                    i += 1
                    at += 1
                }
            }
        }
    }
}
