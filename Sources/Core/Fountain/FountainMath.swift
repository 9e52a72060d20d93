/// The BC-UR fountain code's deterministic choices (BCR-2020-005), shared by the encoder and
/// the decoder of both the UR and the binary-frame formats.
///
/// - Parts `1...seqLen` each carry one fragment (`seqNum - 1`); later parts XOR a set of
///   fragments chosen by a generator seeded with `seqNum` and the message CRC32, both
///   big-endian: first a degree from the 1/i distribution, then that many indexes from a
///   shuffle of `0..<seqLen`.
/// - Fragments are `fragmentLength` bytes, the last one padded with zeros.
enum FountainMath {
    /// The shortest fragment length that needs no more fragments than necessary: the smallest
    /// fragment count whose even split fits `maxFragmentLength` (at least one fragment, even
    /// when the message is shorter than `minFragmentLength`).
    static func nominalFragmentLength(
        messageLength: Int, minFragmentLength: Int, maxFragmentLength: Int
    ) -> Int {
        precondition(messageLength > 0 && minFragmentLength > 0)
        precondition(maxFragmentLength >= minFragmentLength)
        let maxFragmentCount = max(1, messageLength / minFragmentLength)
        var fragmentLength = messageLength
        for fragmentCount in 1...maxFragmentCount {
            fragmentLength = (messageLength + fragmentCount - 1) / fragmentCount
            if fragmentLength <= maxFragmentLength { break }
        }
        return fragmentLength
    }

    /// `message` cut into `fragmentLength`-byte pieces, the last padded with zeros.
    static func partition(_ message: [UInt8], fragmentLength: Int) -> [[UInt8]] {
        stride(from: 0, to: message.count, by: fragmentLength).map { start in
            var fragment = Array(message[start..<min(start + fragmentLength, message.count)])
            fragment.append(contentsOf: repeatElement(0, count: fragmentLength - fragment.count))
            return fragment
        }
    }

    /// The first `count` elements of BC-UR's shuffle of `items` (all of them by default):
    /// repeatedly remove the element at `nextInt(0, remaining - 1)`.
    static func shuffled<T>(_ items: [T], using rng: inout Xoshiro256, count: Int? = nil) -> [T] {
        var remaining = items
        var result: [T] = []
        let wanted = min(count ?? items.count, items.count)
        result.reserveCapacity(wanted)
        while result.count < wanted {
            let index = min(Int(rng.nextInt(0, UInt64(remaining.count - 1))), remaining.count - 1)
            result.append(remaining.remove(at: index))
        }
        return result
    }

    /// XORs `source` into `target` (same length).
    static func xor(_ target: inout [UInt8], _ source: [UInt8]) {
        precondition(target.count == source.count)
        target.withUnsafeMutableBufferPointer { target in
            source.withUnsafeBufferPointer { source in
                for index in target.indices { target[index] ^= source[index] }
            }
        }
    }
}

/// Chooses the fragments mixed into each part of one message. Holds the degree sampler, which
/// depends only on `seqLen`, so that it is built once per message rather than once per part.
struct FragmentChooser: Sendable {
    let seqLen: Int
    let checksum: UInt32
    private let degreeSampler: RandomSampler

    init(seqLen: Int, checksum: UInt32) {
        precondition(seqLen > 0)
        self.seqLen = seqLen
        self.checksum = checksum
        degreeSampler = RandomSampler(weights: (1...seqLen).map { 1.0 / Double($0) })
    }

    /// A degree in `1...seqLen`, drawn from weights 1/1, 1/2, …, 1/seqLen.
    func chooseDegree(using rng: inout Xoshiro256) -> Int {
        degreeSampler.next(using: &rng) + 1
    }

    /// The sorted fragment indexes of part `seqNum` (1-based).
    func indexes(seqNum: UInt32) -> [Int] {
        precondition(seqNum > 0)
        if seqNum <= seqLen { return [Int(seqNum) - 1] }
        var rng = Xoshiro256(seed: BigEndian.bytes(seqNum) + BigEndian.bytes(checksum))
        let degree = chooseDegree(using: &rng)
        return FountainMath.shuffled(Array(0..<seqLen), using: &rng, count: degree).sorted()
    }
}
