/// The Keccak-f[1600] permutation on 25 little-endian lanes, lane (x, y) at index x + 5y.
///
/// The state lives in locals for the whole call (no heap, no index arithmetic). Two rounds are
/// written out per iteration: one round per iteration was 10 % slower (the copies from `e` back
/// to `a` cost nothing, the optimizer renames them). Lanes 1, 2, 8, 12, 17 and 20 are held
/// complemented inside the call (the Keccak team's "lane complementing" transform), so χ needs
/// 5 NOTs a round instead of 25. Together: ~400 to ~310 ns a permutation (Docs/BENCHMARKS.md).
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
    // Into the complemented form, and out of it before returning.
    a01 = ~a01
    a02 = ~a02
    a08 = ~a08
    a12 = ~a12
    a17 = ~a17
    a20 = ~a20
    for round in stride(from: 0, to: 24, by: 2) {
        do {
            // θ
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
            // ρ and π into a row of b, then χ on the row
            let b00 = a00 ^ d0
            let b10 = (a06 ^ d1).rotatedLeft(44)
            let b20 = (a12 ^ d2).rotatedLeft(43)
            let b30 = (a18 ^ d3).rotatedLeft(21)
            let b40 = (a24 ^ d4).rotatedLeft(14)
            let e00 = b00 ^ (b10 | b20)
            let e01 = b10 ^ (~b20 | b30)
            let e02 = b20 ^ (b30 & b40)
            let e03 = b30 ^ (b40 | b00)
            let e04 = b40 ^ (b00 & b10)
            let b01 = (a03 ^ d3).rotatedLeft(28)
            let b11 = (a09 ^ d4).rotatedLeft(20)
            let b21 = (a10 ^ d0).rotatedLeft(3)
            let b31 = (a16 ^ d1).rotatedLeft(45)
            let b41 = (a22 ^ d2).rotatedLeft(61)
            let e05 = b01 ^ (b11 | b21)
            let e06 = b11 ^ (b21 & b31)
            let e07 = b21 ^ (b31 | ~b41)
            let e08 = b31 ^ (b41 | b01)
            let e09 = b41 ^ (b01 & b11)
            let b02 = (a01 ^ d1).rotatedLeft(1)
            let b12 = (a07 ^ d2).rotatedLeft(6)
            let b22 = (a13 ^ d3).rotatedLeft(25)
            let b32 = (a19 ^ d4).rotatedLeft(8)
            let b42 = (a20 ^ d0).rotatedLeft(18)
            let n32 = ~b32
            let e10 = b02 ^ (b12 | b22)
            let e11 = b12 ^ (b22 & b32)
            let e12 = b22 ^ (n32 & b42)
            let e13 = n32 ^ (b42 | b02)
            let e14 = b42 ^ (b02 & b12)
            let b03 = (a04 ^ d4).rotatedLeft(27)
            let b13 = (a05 ^ d0).rotatedLeft(36)
            let b23 = (a11 ^ d1).rotatedLeft(10)
            let b33 = (a17 ^ d2).rotatedLeft(15)
            let b43 = (a23 ^ d3).rotatedLeft(56)
            let n33 = ~b33
            let e15 = b03 ^ (b13 & b23)
            let e16 = b13 ^ (b23 | b33)
            let e17 = b23 ^ (n33 | b43)
            let e18 = n33 ^ (b43 & b03)
            let e19 = b43 ^ (b03 | b13)
            let b04 = (a02 ^ d2).rotatedLeft(62)
            let b14 = (a08 ^ d3).rotatedLeft(55)
            let b24 = (a14 ^ d4).rotatedLeft(39)
            let b34 = (a15 ^ d0).rotatedLeft(41)
            let b44 = (a21 ^ d1).rotatedLeft(2)
            let n14 = ~b14
            let e20 = b04 ^ (n14 & b24)
            let e21 = n14 ^ (b24 | b34)
            let e22 = b24 ^ (b34 & b44)
            let e23 = b34 ^ (b44 | b04)
            let e24 = b44 ^ (b04 & b14)
            // ι, on the way back into a
            a00 = e00 ^ roundConstants[round]
            a01 = e01
            a02 = e02
            a03 = e03
            a04 = e04
            a05 = e05
            a06 = e06
            a07 = e07
            a08 = e08
            a09 = e09
            a10 = e10
            a11 = e11
            a12 = e12
            a13 = e13
            a14 = e14
            a15 = e15
            a16 = e16
            a17 = e17
            a18 = e18
            a19 = e19
            a20 = e20
            a21 = e21
            a22 = e22
            a23 = e23
            a24 = e24
        }
        do {
            // θ
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
            // ρ and π into a row of b, then χ on the row
            let b00 = a00 ^ d0
            let b10 = (a06 ^ d1).rotatedLeft(44)
            let b20 = (a12 ^ d2).rotatedLeft(43)
            let b30 = (a18 ^ d3).rotatedLeft(21)
            let b40 = (a24 ^ d4).rotatedLeft(14)
            let e00 = b00 ^ (b10 | b20)
            let e01 = b10 ^ (~b20 | b30)
            let e02 = b20 ^ (b30 & b40)
            let e03 = b30 ^ (b40 | b00)
            let e04 = b40 ^ (b00 & b10)
            let b01 = (a03 ^ d3).rotatedLeft(28)
            let b11 = (a09 ^ d4).rotatedLeft(20)
            let b21 = (a10 ^ d0).rotatedLeft(3)
            let b31 = (a16 ^ d1).rotatedLeft(45)
            let b41 = (a22 ^ d2).rotatedLeft(61)
            let e05 = b01 ^ (b11 | b21)
            let e06 = b11 ^ (b21 & b31)
            let e07 = b21 ^ (b31 | ~b41)
            let e08 = b31 ^ (b41 | b01)
            let e09 = b41 ^ (b01 & b11)
            let b02 = (a01 ^ d1).rotatedLeft(1)
            let b12 = (a07 ^ d2).rotatedLeft(6)
            let b22 = (a13 ^ d3).rotatedLeft(25)
            let b32 = (a19 ^ d4).rotatedLeft(8)
            let b42 = (a20 ^ d0).rotatedLeft(18)
            let n32 = ~b32
            let e10 = b02 ^ (b12 | b22)
            let e11 = b12 ^ (b22 & b32)
            let e12 = b22 ^ (n32 & b42)
            let e13 = n32 ^ (b42 | b02)
            let e14 = b42 ^ (b02 & b12)
            let b03 = (a04 ^ d4).rotatedLeft(27)
            let b13 = (a05 ^ d0).rotatedLeft(36)
            let b23 = (a11 ^ d1).rotatedLeft(10)
            let b33 = (a17 ^ d2).rotatedLeft(15)
            let b43 = (a23 ^ d3).rotatedLeft(56)
            let n33 = ~b33
            let e15 = b03 ^ (b13 & b23)
            let e16 = b13 ^ (b23 | b33)
            let e17 = b23 ^ (n33 | b43)
            let e18 = n33 ^ (b43 & b03)
            let e19 = b43 ^ (b03 | b13)
            let b04 = (a02 ^ d2).rotatedLeft(62)
            let b14 = (a08 ^ d3).rotatedLeft(55)
            let b24 = (a14 ^ d4).rotatedLeft(39)
            let b34 = (a15 ^ d0).rotatedLeft(41)
            let b44 = (a21 ^ d1).rotatedLeft(2)
            let n14 = ~b14
            let e20 = b04 ^ (n14 & b24)
            let e21 = n14 ^ (b24 | b34)
            let e22 = b24 ^ (b34 & b44)
            let e23 = b34 ^ (b44 | b04)
            let e24 = b44 ^ (b04 & b14)
            // ι, on the way back into a
            a00 = e00 ^ roundConstants[round + 1]
            a01 = e01
            a02 = e02
            a03 = e03
            a04 = e04
            a05 = e05
            a06 = e06
            a07 = e07
            a08 = e08
            a09 = e09
            a10 = e10
            a11 = e11
            a12 = e12
            a13 = e13
            a14 = e14
            a15 = e15
            a16 = e16
            a17 = e17
            a18 = e18
            a19 = e19
            a20 = e20
            a21 = e21
            a22 = e22
            a23 = e23
            a24 = e24
        }
    }
    a01 = ~a01
    a02 = ~a02
    a08 = ~a08
    a12 = ~a12
    a17 = ~a17
    a20 = ~a20
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
