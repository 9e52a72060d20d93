// Equality of data items rather than of Swift payloads (see the rules on `CBOR`):
// synthesized conformance would make NaN unequal to itself, 0.0 equal to -0.0 and "é" equal
// to "e\u{301}", none of which matches what the encoder writes.
extension CBOR: Hashable {
    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)): a == b
        case (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a == b
        case (.tagged(let t, let a), .tagged(let u, let b)): t == u && a == b
        case (.simple(let a), .simple(let b)): a == b
        case (.boolean(let a), .boolean(let b)): a == b
        case (.null, .null), (.undefined, .undefined): true
        case (.float(let a), .float(let b)): Self.floatKey(a) == Self.floatKey(b)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value):
            hasher.combine(0 as UInt8)
            hasher.combine(value)
        case .negative(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .bytes(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .text(let value):
            hasher.combine(3 as UInt8)
            hasher.combine(value.utf8.count)
            for byte in value.utf8 { hasher.combine(byte) }
        case .array(let value):
            hasher.combine(4 as UInt8)
            hasher.combine(value)
        case .map(let value):
            hasher.combine(5 as UInt8)
            hasher.combine(value)
        case .tagged(let tag, let value):
            hasher.combine(6 as UInt8)
            hasher.combine(tag)
            hasher.combine(value)
        case .simple(let value):
            hasher.combine(7 as UInt8)
            hasher.combine(value)
        case .boolean(let value):
            hasher.combine(8 as UInt8)
            hasher.combine(value)
        case .null:
            hasher.combine(9 as UInt8)
        case .undefined:
            hasher.combine(10 as UInt8)
        case .float(let value):
            hasher.combine(11 as UInt8)
            hasher.combine(Self.floatKey(value))
        }
    }

    /// Bit pattern, with every NaN folded onto one.
    private static func floatKey(_ value: Double) -> UInt64 {
        value.isNaN ? Double.nan.bitPattern : value.bitPattern
    }
}
