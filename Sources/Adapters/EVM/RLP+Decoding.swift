extension RLP {
    /// Decodes exactly one item filling `input`. Only the canonical encoding is accepted (the
    /// one `encoded` produces), so each value has a single byte form and a transaction read
    /// back hashes as it was sent.
    public static func decode(_ input: some Collection<UInt8>) throws(RLPError) -> RLP {
        let bytes = Array(input)
        var position = 0
        let item = try decodeItem(bytes, at: &position, depth: 0)
        guard position == bytes.count else { throw RLPError(.trailingBytes, offset: position) }
        return item
    }

    /// Deep enough for any transaction; bounds recursion on hostile input.
    static let maximumDepth = 64

    private static func decodeItem(
        _ bytes: [UInt8], at position: inout Int, depth: Int
    ) throws(RLPError) -> RLP {
        guard depth <= maximumDepth else { throw RLPError(.tooDeep, offset: position) }
        guard position < bytes.count else { throw RLPError(.truncated, offset: position) }
        let start = position
        let prefix = bytes[position]
        position += 1
        switch prefix {
        case 0x00...0x7f:
            return .bytes([prefix])
        case 0x80...0xbf:
            let length = try payloadLength(bytes, prefix: prefix, offset: 0x80, at: &position)
            let payload = try take(bytes, length, at: &position)
            if payload.count == 1, payload[0] < 0x80 {
                throw RLPError(
                    .nonCanonical("a single byte below 0x80 is its own encoding"), offset: start)
            }
            return .bytes(payload)
        default:
            let length = try payloadLength(bytes, prefix: prefix, offset: 0xc0, at: &position)
            guard length <= bytes.count - position else {
                throw RLPError(.truncated, offset: start)
            }
            let end = position + length
            var items: [RLP] = []
            while position < end {
                items.append(try decodeItem(bytes, at: &position, depth: depth + 1))
            }
            guard position == end else {
                throw RLPError(.truncated, offset: start)  // the last item ran past the list
            }
            return .list(items)
        }
    }

    private static func payloadLength(
        _ bytes: [UInt8], prefix: UInt8, offset: UInt8, at position: inout Int
    ) throws(RLPError) -> Int {
        let start = position - 1
        let short = Int(prefix - offset)
        if short <= 55 { return short }
        let lengthBytes = try take(bytes, short - 55, at: &position)
        guard lengthBytes[0] != 0 else {
            throw RLPError(.nonCanonical("length with a leading zero"), offset: start)
        }
        guard lengthBytes.count <= 4 else { throw RLPError(.tooLong, offset: start) }
        let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        guard length >= 56 else {
            throw RLPError(.nonCanonical("long form for a length below 56"), offset: start)
        }
        return length
    }

    private static func take(
        _ bytes: [UInt8], _ count: Int, at position: inout Int
    ) throws(RLPError) -> [UInt8] {
        guard count <= bytes.count - position else { throw RLPError(.truncated, offset: position) }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }
}

extension RLP {
    /// The string as an unsigned integer of at most `maximumBytes` bytes; refuses a leading
    /// zero (integers are minimal in RLP).
    public func unsignedBytes(maximumBytes: Int = 32) throws(RLPError) -> [UInt8] {
        guard let bytes = byteString else { throw RLPError(.expectedString, offset: 0) }
        guard bytes.first != 0 else {
            throw RLPError(.nonCanonical("integer with a leading zero"), offset: 0)
        }
        guard bytes.count <= maximumBytes else { throw RLPError(.tooLong, offset: 0) }
        return bytes
    }

    public func uint64() throws(RLPError) -> UInt64 {
        try unsignedBytes(maximumBytes: 8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
