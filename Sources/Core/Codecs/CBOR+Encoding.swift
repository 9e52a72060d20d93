// Deterministic encoding, RFC 8949 §4.2.1.
extension CBOR {
    /// The deterministic encoding: shortest heads, definite lengths, map keys sorted by the
    /// bytewise lexicographic order of their encodings, shortest exact floats.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let value):
            Self.appendHead(major: 0, value, to: &out)
        case .negative(let value):
            Self.appendHead(major: 1, value, to: &out)
        case .bytes(let value):
            Self.appendHead(major: 2, UInt64(value.count), to: &out)
            out.append(contentsOf: value)
        case .text(let value):
            Self.appendHead(major: 3, UInt64(value.utf8.count), to: &out)
            out.append(contentsOf: value.utf8)
        case .array(let items):
            Self.appendHead(major: 4, UInt64(items.count), to: &out)
            for item in items { item.encode(into: &out) }
        case .map(let entries):
            Self.appendHead(major: 5, UInt64(entries.count), to: &out)
            let keyed = entries.map { (key: $0.key.encoded(), value: $0.value) }
            for entry in keyed.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                out.append(contentsOf: entry.key)
                entry.value.encode(into: &out)
            }
        case .tagged(let tag, let content):
            Self.appendHead(major: 6, tag, to: &out)
            content.encode(into: &out)
        case .simple(let value):
            switch value {
            case 0...23: out.append(0xe0 | value)  // 20...23 are false/true/null/undefined
            case 24...31: preconditionFailure("CBOR simple value \(value) has no valid encoding")
            default: out.append(contentsOf: [0xf8, value])
            }
        case .boolean(let value):
            out.append(value ? 0xf5 : 0xf4)
        case .null:
            out.append(0xf6)
        case .undefined:
            out.append(0xf7)
        case .float(let value):
            Self.appendFloat(value, to: &out)
        }
    }

    /// The shortest head for `argument`.
    static func appendHead(major: UInt8, _ argument: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            out.append(type | UInt8(argument))
        case 24...0xff:
            out.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xffff:
            out.append(type | 25)
            appendBigEndian(argument, byteCount: 2, to: &out)
        case 0x1_0000...0xffff_ffff:
            out.append(type | 26)
            appendBigEndian(argument, byteCount: 4, to: &out)
        default:
            out.append(type | 27)
            appendBigEndian(argument, byteCount: 8, to: &out)
        }
    }

    static func appendFloat(_ value: Double, to out: inout [UInt8]) {
        if value.isNaN {
            out.append(0xf9)
            appendBigEndian(UInt64(CBORFloat.canonicalHalfNaN), byteCount: 2, to: &out)
        } else if let half = CBORFloat.halfBits(exactly: value) {
            out.append(0xf9)
            appendBigEndian(UInt64(half), byteCount: 2, to: &out)
        } else if let single = CBORFloat.singleBits(exactly: value) {
            out.append(0xfa)
            appendBigEndian(UInt64(single), byteCount: 4, to: &out)
        } else {
            out.append(0xfb)
            appendBigEndian(value.bitPattern, byteCount: 8, to: &out)
        }
    }

    private static func appendBigEndian(_ value: UInt64, byteCount: Int, to out: inout [UInt8]) {
        for index in stride(from: byteCount - 1, through: 0, by: -1) {
            out.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }
}
