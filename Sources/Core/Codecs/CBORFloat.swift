/// Conversions between Double and the IEEE 754 half and single widths CBOR allows,
/// done on bit patterns so that they work where `Float16` is unavailable (macOS on x86_64).
enum CBORFloat {
    /// The one NaN deterministic encoding writes (RFC 8949 §4.2.2): f9 7e00.
    static let canonicalHalfNaN: UInt16 = 0x7e00

    /// Half-precision bits for `value` when the conversion loses nothing; nil otherwise or for NaN.
    static func halfBits(exactly value: Double) -> UInt16? {
        let bits = value.bitPattern
        let sign = UInt16(truncatingIfNeeded: bits >> 48) & 0x8000
        if value.isNaN { return nil }
        if value.isInfinite { return sign | 0x7c00 }
        if value == 0 { return sign }
        let exponent = Int((bits >> 52) & 0x7ff) - 1023
        let significand = (bits & (1 << 52 - 1)) | 1 << 52  // doubles this small never fit
        switch exponent {
        case -14...15:
            guard bits & (1 << 42 - 1) == 0 else { return nil }
            let mantissa = UInt16(truncatingIfNeeded: (bits >> 42) & 0x3ff)
            return sign | UInt16(exponent + 15) << 10 | mantissa
        case -24 ..< -14:
            // Subnormal half: value = k × 2^-24 with k < 1024.
            let shift = UInt64(28 - exponent)
            guard significand & (1 << shift - 1) == 0 else { return nil }
            return sign | UInt16(truncatingIfNeeded: significand >> shift)
        default:
            return nil
        }
    }

    /// Single-precision bits for `value` when the conversion loses nothing; nil otherwise or NaN.
    static func singleBits(exactly value: Double) -> UInt32? {
        let single = Float(value)
        guard !value.isNaN, Double(single).bitPattern == value.bitPattern else { return nil }
        return single.bitPattern
    }

    static func double(fromHalf bits: UInt16) -> Double {
        let sign = UInt64(bits & 0x8000) << 48
        let exponent = Int(bits >> 10) & 0x1f
        let mantissa = UInt64(bits & 0x3ff)
        switch exponent {
        case 0:
            let magnitude = Double(mantissa) * 0x1p-24
            return sign == 0 ? magnitude : -magnitude
        case 0x1f:
            // Infinity, or NaN with its payload kept in the top mantissa bits.
            return Double(bitPattern: sign | 0x7ff << 52 | mantissa << 42)
        default:
            return Double(bitPattern: sign | UInt64(exponent - 15 + 1023) << 52 | mantissa << 42)
        }
    }
}
