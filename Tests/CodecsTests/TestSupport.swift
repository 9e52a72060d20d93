import Codecs

/// Bytes from a hex fixture; spaces allowed for readability. Traps on a malformed fixture.
func h(_ text: String) -> [UInt8] {
    do {
        return try Hex.decode(text.filter { !$0.isWhitespace })
    } catch {
        fatalError("bad hex fixture \(text): \(error)")
    }
}

/// Lowercase hex without prefix, for comparing against fixtures.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    Hex.encode(bytes, prefix: false)
}

/// A small deterministic PRNG (SplitMix64), so random tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
