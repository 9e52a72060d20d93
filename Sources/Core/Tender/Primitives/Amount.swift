/// Amounts are integers in the asset's base unit, up to 2^128 - 1.
public typealias Amount = UInt128

extension UInt128 {
    /// Minimal big-endian bytes (empty for zero): the CBOR bignum form.
    var minimalBigEndian: [UInt8] {
        var result: [UInt8] = []
        var value = self
        while value > 0 {
            result.insert(UInt8(truncatingIfNeeded: value), at: 0)
            value >>= 8
        }
        return result
    }

    init?(bigEndian bytes: [UInt8]) {
        guard bytes.count <= 16 else { return nil }
        var value: UInt128 = 0
        for byte in bytes { value = value << 8 | UInt128(byte) }
        self = value
    }
}

/// Sums amounts, reporting overflow instead of trapping: hostile input must not crash a node.
public func checkedSum(_ amounts: some Sequence<Amount>) -> Amount? {
    var total: Amount = 0
    for amount in amounts {
        let (sum, overflow) = total.addingReportingOverflow(amount)
        if overflow { return nil }
        total = sum
    }
    return total
}
