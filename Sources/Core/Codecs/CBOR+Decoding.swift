extension CBOR {
    /// Decodes exactly one data item that spans all of `bytes`.
    ///
    /// Every declared length is checked against the limits and the remaining input before
    /// anything is allocated, so hostile input costs work and memory in proportion to its
    /// actual size (at most `maxInputBytes`), never to what it declares.
    public static func decode(
        _ bytes: some Collection<UInt8>, options: CBORDecodingOptions = .deterministic
    ) throws(CBORError) -> CBOR {
        guard bytes.count <= options.maxInputBytes else {
            throw CBORError(kind: .tooLarge, offset: options.maxInputBytes)
        }
        var decoder = CBORDecoder(bytes: Array(bytes), options: options)
        let item = try decoder.decodeItem(depth: 0)
        guard decoder.offset == decoder.bytes.count else {
            throw CBORError(kind: .trailingBytes, offset: decoder.offset)
        }
        return item
    }
}

/// A recursive-descent reader over one input. Recursion depth is bounded by `maxDepth`.
struct CBORDecoder {
    let bytes: [UInt8]
    let options: CBORDecodingOptions
    var offset = 0

    init(bytes: [UInt8], options: CBORDecodingOptions) {
        self.bytes = bytes
        self.options = options
    }

    /// An item's initial byte and argument. `argument` is nil for indefinite length (31).
    struct Head {
        var start: Int
        var major: UInt8
        var info: UInt8
        var argument: UInt64?
    }

    private static let breakCode: UInt8 = 0xff

    private var remaining: Int { bytes.count - offset }

    /// `depth` counts the arrays, maps and tags around this item.
    mutating func decodeItem(depth: Int) throws(CBORError) -> CBOR {
        let head = try readHead()
        switch head.major {
        case 0:
            return .unsigned(try definiteArgument(head))
        case 1:
            return .negative(try definiteArgument(head))
        case 2:
            return .bytes(try readString(head))
        case 3:
            return .text(try readText(head))
        case 4:
            return .array(try readArray(head, depth: depth))
        case 5:
            return .map(try readMap(head, depth: depth))
        case 6:
            let tag = try definiteArgument(head)
            try enter(head, depth: depth)
            return .tagged(tag, try decodeItem(depth: depth + 1))
        default:
            return try readSimpleOrFloat(head)
        }
    }

    // MARK: Heads

    private mutating func readHead() throws(CBORError) -> Head {
        let start = offset
        guard remaining > 0 else { throw CBORError(kind: .truncated, offset: start) }
        let initial = bytes[offset]
        offset += 1
        var head = Head(start: start, major: initial >> 5, info: initial & 0x1f, argument: nil)
        switch head.info {
        case 0..<24:
            head.argument = UInt64(head.info)
        case 24...27:
            let width = 1 << Int(head.info - 24)
            guard remaining >= width else { throw CBORError(kind: .truncated, offset: start) }
            var value: UInt64 = 0
            for byte in bytes[offset..<offset + width] { value = value << 8 | UInt64(byte) }
            offset += width
            head.argument = value
            // Major 7 carries floats and simple values here, checked by their own rules.
            if options.requireDeterministic, head.major != 7, !Self.isShortest(head) {
                throw CBORError(kind: .nonCanonicalHead, offset: start)
            }
        case 28...30:
            throw CBORError(kind: .reservedAdditionalInfo, offset: start)
        default:
            break  // 31: indefinite length, or break for major 7
        }
        return head
    }

    private static func isShortest(_ head: Head) -> Bool {
        guard let value = head.argument else { return true }
        return switch head.info {
        case 24: value >= 24
        case 25: value > 0xff
        case 26: value > 0xffff
        case 27: value > 0xffff_ffff
        default: true
        }
    }

    /// The argument of an integer or tag, for which indefinite length is not well-formed.
    private func definiteArgument(_ head: Head) throws(CBORError) -> UInt64 {
        guard let value = head.argument else {
            throw CBORError(kind: .reservedAdditionalInfo, offset: head.start)
        }
        return value
    }

    private func enter(_ head: Head, depth: Int) throws(CBORError) {
        guard depth < options.maxDepth else { throw CBORError(kind: .tooDeep, offset: head.start) }
    }

    private func requireDefinite(_ head: Head) throws(CBORError) {
        if head.argument == nil, options.requireDeterministic {
            throw CBORError(kind: .indefiniteLength, offset: head.start)
        }
    }

    /// Consumes a break code if one is next; true when it did.
    private mutating func takeBreak() throws(CBORError) -> Bool {
        guard remaining > 0 else { throw CBORError(kind: .truncated, offset: offset) }
        guard bytes[offset] == Self.breakCode else { return false }
        offset += 1
        return true
    }

    // MARK: Strings

    private mutating func readString(_ head: Head) throws(CBORError) -> [UInt8] {
        try requireDefinite(head)
        guard head.argument == nil else {
            return Array(try readDefiniteString(head, alreadyRead: 0))
        }
        // Indefinite: definite-length chunks of the same major type, then a break.
        var value: [UInt8] = []
        while try !takeBreak() {
            let chunk = try readHead()
            guard chunk.major == head.major, chunk.argument != nil else {
                throw CBORError(kind: .indefiniteLength, offset: chunk.start)
            }
            let piece = try readDefiniteString(chunk, alreadyRead: value.count)
            // Each chunk must be valid UTF-8 on its own (RFC 8949 §3.2.3).
            if head.major == 3, String(validating: piece, as: UTF8.self) == nil {
                throw CBORError(kind: .invalidUTF8, offset: chunk.start)
            }
            value.append(contentsOf: piece)
        }
        return value
    }

    private mutating func readDefiniteString(
        _ head: Head, alreadyRead: Int
    ) throws(CBORError) -> ArraySlice<UInt8> {
        let length = head.argument ?? 0
        guard length <= UInt64(max(0, options.maxStringBytes - alreadyRead)) else {
            throw CBORError(kind: .stringTooLong, offset: head.start)
        }
        guard length <= UInt64(remaining) else {
            throw CBORError(kind: .truncated, offset: head.start)
        }
        let end = offset + Int(length)
        defer { offset = end }
        return bytes[offset..<end]
    }

    private mutating func readText(_ head: Head) throws(CBORError) -> String {
        let utf8 = try readString(head)
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw CBORError(kind: .invalidUTF8, offset: head.start)
        }
        return text
    }

    // MARK: Collections

    private mutating func readArray(_ head: Head, depth: Int) throws(CBORError) -> [CBOR] {
        try requireDefinite(head)
        try enter(head, depth: depth)
        var items: [CBOR] = []
        guard let declared = head.argument else {
            while try !takeBreak() {
                guard items.count < options.maxCollectionCount else {
                    throw CBORError(kind: .tooManyItems, offset: head.start)
                }
                items.append(try decodeItem(depth: depth + 1))
            }
            return items
        }
        // Each element takes at least one byte.
        let count = try checkedCount(declared, head: head, minimumBytesEach: 1)
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try decodeItem(depth: depth + 1)) }
        return items
    }

    private mutating func readMap(_ head: Head, depth: Int) throws(CBORError) -> [CBOR.Entry] {
        try requireDefinite(head)
        try enter(head, depth: depth)
        var entries: [CBOR.Entry] = []
        var keys = MapKeyChecker(deterministic: options.requireDeterministic)
        guard let declared = head.argument else {
            while try !takeBreak() {
                guard entries.count < options.maxCollectionCount else {
                    throw CBORError(kind: .tooManyItems, offset: head.start)
                }
                entries.append(try readEntry(depth: depth, keys: &keys))
            }
            return entries
        }
        let count = try checkedCount(declared, head: head, minimumBytesEach: 2)
        entries.reserveCapacity(count)
        for _ in 0..<count { entries.append(try readEntry(depth: depth, keys: &keys)) }
        return entries
    }

    private mutating func readEntry(
        depth: Int, keys: inout MapKeyChecker
    ) throws(CBORError) -> CBOR.Entry {
        let keyStart = offset
        let key = try decodeItem(depth: depth + 1)
        try keys.add(key, encoding: bytes[keyStart..<offset], at: keyStart)
        // A break here would leave the key without a value (RFC 8949 Appendix F "bf 00 ff").
        let value = try decodeItem(depth: depth + 1)
        return CBOR.Entry(key, value)
    }

    /// The declared element count, once it is within the limit and could fit in what is left.
    private func checkedCount(
        _ declared: UInt64, head: Head, minimumBytesEach: Int
    ) throws(CBORError) -> Int {
        guard declared <= UInt64(max(0, options.maxCollectionCount)) else {
            throw CBORError(kind: .tooManyItems, offset: head.start)
        }
        guard declared <= UInt64(remaining / minimumBytesEach) else {
            throw CBORError(kind: .truncated, offset: head.start)
        }
        return Int(declared)
    }

    // MARK: Major type 7

    private mutating func readSimpleOrFloat(_ head: Head) throws(CBORError) -> CBOR {
        switch head.info {
        case 0..<20:
            return .simple(head.info)
        case 20, 21:
            return .boolean(head.info == 21)
        case 22:
            return .null
        case 23:
            return .undefined
        case 24:
            let value = UInt8(head.argument ?? 0)
            guard value >= 32 else {
                throw CBORError(kind: .invalidSimpleValue, offset: head.start)
            }
            return .simple(value)
        case 25, 26, 27:
            return .float(try readFloat(head))
        default:
            throw CBORError(kind: .unexpectedBreak, offset: head.start)
        }
    }

    private func readFloat(_ head: Head) throws(CBORError) -> Double {
        let bits = head.argument ?? 0
        let value: Double
        let shortest: Bool
        switch head.info {
        case 25:
            value = CBORFloat.double(fromHalf: UInt16(bits))
            shortest = !value.isNaN || bits == UInt64(CBORFloat.canonicalHalfNaN)
        case 26:
            value = Double(Float(bitPattern: UInt32(bits)))
            shortest = !value.isNaN && CBORFloat.halfBits(exactly: value) == nil
        default:
            value = Double(bitPattern: bits)
            shortest =
                !value.isNaN && CBORFloat.halfBits(exactly: value) == nil
                && CBORFloat.singleBits(exactly: value) == nil
        }
        if options.requireDeterministic, !shortest {
            throw CBORError(kind: .nonCanonicalFloat, offset: head.start)
        }
        return value
    }
}
