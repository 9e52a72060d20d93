/// The Keccak-f[1600] permutation on 25 little-endian lanes, lane (x, y) at index x + 5y.
///
/// The state lives in registers and stack slots for the whole call (no heap, no index
/// arithmetic): one round is written out in full so the optimizer sees straight-line code.
/// Structure and constants follow the Keccak reference (FIPS 202 §3.2; the constants were
/// derived from the spec's LFSR and rotation definitions, not typed in).
@usableFromInline
typealias KeccakLanes = (
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
    UInt64, UInt64, UInt64, UInt64, UInt64
)

/// ι step constants, one per round.
private let roundConstants: [UInt64] = [
    0x0000_0000_0000_0001, 0x0000_0000_0000_8082, 0x8000_0000_0000_808A,
    0x8000_0000_8000_8000, 0x0000_0000_0000_808B, 0x0000_0000_8000_0001,
    0x8000_0000_8000_8081, 0x8000_0000_0000_8009, 0x0000_0000_0000_008A,
    0x0000_0000_0000_0088, 0x0000_0000_8000_8009, 0x0000_0000_8000_000A,
    0x0000_0000_8000_808B, 0x8000_0000_0000_008B, 0x8000_0000_0000_8089,
    0x8000_0000_0000_8003, 0x8000_0000_0000_8002, 0x8000_0000_0000_0080,
    0x0000_0000_0000_800A, 0x8000_0000_8000_000A, 0x8000_0000_8000_8081,
    0x8000_0000_0000_8080, 0x0000_0000_8000_0001, 0x8000_0000_8000_8008,
]

@usableFromInline
func keccakF1600(_ state: inout KeccakLanes) {
    var a00 = state.0
    var a01 = state.1
    var a02 = state.2
    var a03 = state.3
    var a04 = state.4
    var a05 = state.5
    var a06 = state.6
    var a07 = state.7
    var a08 = state.8
    var a09 = state.9
    var a10 = state.10
    var a11 = state.11
    var a12 = state.12
    var a13 = state.13
    var a14 = state.14
    var a15 = state.15
    var a16 = state.16
    var a17 = state.17
    var a18 = state.18
    var a19 = state.19
    var a20 = state.20
    var a21 = state.21
    var a22 = state.22
    var a23 = state.23
    var a24 = state.24
    for round in 0..<24 {
        // θ: each column's parity folded into its neighbours.
        let c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20
        let c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21
        let c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22
        let c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23
        let c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24
        let d0 = c4 ^ c1.rotatedLeft(1)
        let d1 = c0 ^ c2.rotatedLeft(1)
        let d2 = c1 ^ c3.rotatedLeft(1)
        let d3 = c2 ^ c4.rotatedLeft(1)
        let d4 = c3 ^ c0.rotatedLeft(1)
        // ρ and π: rotate each lane and move it to its new position.
        let b00 = a00 ^ d0
        let b01 = (a06 ^ d1).rotatedLeft(44)
        let b02 = (a12 ^ d2).rotatedLeft(43)
        let b03 = (a18 ^ d3).rotatedLeft(21)
        let b04 = (a24 ^ d4).rotatedLeft(14)
        let b05 = (a03 ^ d3).rotatedLeft(28)
        let b06 = (a09 ^ d4).rotatedLeft(20)
        let b07 = (a10 ^ d0).rotatedLeft(3)
        let b08 = (a16 ^ d1).rotatedLeft(45)
        let b09 = (a22 ^ d2).rotatedLeft(61)
        let b10 = (a01 ^ d1).rotatedLeft(1)
        let b11 = (a07 ^ d2).rotatedLeft(6)
        let b12 = (a13 ^ d3).rotatedLeft(25)
        let b13 = (a19 ^ d4).rotatedLeft(8)
        let b14 = (a20 ^ d0).rotatedLeft(18)
        let b15 = (a04 ^ d4).rotatedLeft(27)
        let b16 = (a05 ^ d0).rotatedLeft(36)
        let b17 = (a11 ^ d1).rotatedLeft(10)
        let b18 = (a17 ^ d2).rotatedLeft(15)
        let b19 = (a23 ^ d3).rotatedLeft(56)
        let b20 = (a02 ^ d2).rotatedLeft(62)
        let b21 = (a08 ^ d3).rotatedLeft(55)
        let b22 = (a14 ^ d4).rotatedLeft(39)
        let b23 = (a15 ^ d0).rotatedLeft(41)
        let b24 = (a21 ^ d1).rotatedLeft(2)
        // χ: the only non-linear step, row by row.
        a00 = b00 ^ (~b01 & b02)
        a01 = b01 ^ (~b02 & b03)
        a02 = b02 ^ (~b03 & b04)
        a03 = b03 ^ (~b04 & b00)
        a04 = b04 ^ (~b00 & b01)
        a05 = b05 ^ (~b06 & b07)
        a06 = b06 ^ (~b07 & b08)
        a07 = b07 ^ (~b08 & b09)
        a08 = b08 ^ (~b09 & b05)
        a09 = b09 ^ (~b05 & b06)
        a10 = b10 ^ (~b11 & b12)
        a11 = b11 ^ (~b12 & b13)
        a12 = b12 ^ (~b13 & b14)
        a13 = b13 ^ (~b14 & b10)
        a14 = b14 ^ (~b10 & b11)
        a15 = b15 ^ (~b16 & b17)
        a16 = b16 ^ (~b17 & b18)
        a17 = b17 ^ (~b18 & b19)
        a18 = b18 ^ (~b19 & b15)
        a19 = b19 ^ (~b15 & b16)
        a20 = b20 ^ (~b21 & b22)
        a21 = b21 ^ (~b22 & b23)
        a22 = b22 ^ (~b23 & b24)
        a23 = b23 ^ (~b24 & b20)
        a24 = b24 ^ (~b20 & b21)
        // ι
        a00 ^= roundConstants[round]
    }
    state = (
        a00, a01, a02, a03, a04, a05, a06, a07, a08, a09, a10, a11, a12, a13, a14, a15, a16,
        a17, a18, a19, a20, a21, a22, a23, a24
    )
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self &<< count) | (self &>> (64 &- count))
    }
}
