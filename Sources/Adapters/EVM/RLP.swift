/// Recursive Length Prefix, Ethereum's serialisation of byte strings and lists (the yellow
/// paper, appendix B). Transactions are RLP; Docs/EVM.md says which ones Tender makes.
public indirect enum RLP: Sendable, Hashable {
    case bytes([UInt8])
    case list([RLP])

    /// An unsigned integer as RLP wants it: big-endian with no leading zeros (zero is empty).
    public static func uint(_ value: some BinaryInteger) -> RLP {
        precondition(value >= 0, "RLP integers are unsigned")
        var remaining = value
        var bytes: [UInt8] = []
        while remaining > 0 {
            bytes.append(UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        }
        return .bytes(bytes.reversed())
    }

    public var encoded: [UInt8] {
        var output: [UInt8] = []
        append(to: &output)
        return output
    }

    private func append(to output: inout [UInt8]) {
        switch self {
        case .bytes(let bytes):
            if bytes.count == 1, bytes[0] < 0x80 {
                output.append(bytes[0])
            } else {
                Self.appendLength(bytes.count, offset: 0x80, to: &output)
                output += bytes
            }
        case .list(let items):
            var payload: [UInt8] = []
            for item in items { item.append(to: &payload) }
            Self.appendLength(payload.count, offset: 0xc0, to: &output)
            output += payload
        }
    }

    /// Short form `offset + length` below 56 bytes, else `offset + 55 + n` and n length bytes.
    private static func appendLength(_ length: Int, offset: UInt8, to output: inout [UInt8]) {
        if length < 56 {
            output.append(offset + UInt8(length))
            return
        }
        let lengthBytes = RLP.uint(length).byteString ?? []
        output.append(offset + 55 + UInt8(lengthBytes.count))
        output += lengthBytes
    }

    /// The bytes of a string item, nil for a list.
    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The items of a list, nil for a string.
    public var listItems: [RLP]? {
        if case .list(let items) = self { return items }
        return nil
    }
}
