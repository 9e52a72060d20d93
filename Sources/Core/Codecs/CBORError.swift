/// Why `CBOR.decode` refused its input: what kind of problem, and the byte offset where it is.
public struct CBORError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The input ends inside an item, or a declared length runs past the end.
        case truncated
        /// Bytes remain after the top-level item.
        case trailingBytes
        /// The input is longer than `maxInputBytes`.
        case tooLarge
        /// Arrays, maps and tags nest deeper than `maxDepth`.
        case tooDeep
        /// An array or map declares (or holds) more than `maxCollectionCount` elements.
        case tooManyItems
        /// A byte or text string is longer than `maxStringBytes`.
        case stringTooLong
        case invalidUTF8
        /// Additional information 28–30, or 31 (indefinite) on an integer or a tag.
        case reservedAdditionalInfo
        /// A break (0xff) outside an indefinite-length item, or in a map's value position.
        case unexpectedBreak
        /// An integer, length or tag written in more bytes than needed.
        case nonCanonicalHead
        /// An indefinite-length item where deterministic encoding is required, or an
        /// indefinite-length string whose chunk is not a definite string of the same type.
        case indefiniteLength
        /// Map keys not in the bytewise order of their encodings.
        case unsortedMapKeys
        /// The same key twice in one map (rejected in every mode).
        case duplicateMapKey
        /// A float written wider than needed to keep its value, or a NaN other than f97e00.
        case nonCanonicalFloat
        /// A simple value below 32 written in two bytes (f8 00 … f8 1f).
        case invalidSimpleValue
    }

    public let kind: Kind
    /// Byte offset where it went wrong: usually the start of the offending item's head.
    public let offset: Int

    public init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let problem =
            switch kind {
            case .truncated: "input ends inside an item"
            case .trailingBytes: "bytes follow the top-level item"
            case .tooLarge: "input exceeds the size limit"
            case .tooDeep: "nesting exceeds the depth limit"
            case .tooManyItems: "collection exceeds the item limit"
            case .stringTooLong: "string exceeds the length limit"
            case .invalidUTF8: "text string is not valid UTF-8"
            case .reservedAdditionalInfo: "reserved or invalid additional information"
            case .unexpectedBreak: "unexpected break code"
            case .nonCanonicalHead: "integer, length or tag not in its shortest form"
            case .indefiniteLength: "indefinite length not allowed here"
            case .unsortedMapKeys: "map keys not in deterministic order"
            case .duplicateMapKey: "duplicate map key"
            case .nonCanonicalFloat: "float not in its shortest form"
            case .invalidSimpleValue: "two-byte simple value below 32"
            }
        return "CBOR: \(problem) at offset \(offset)"
    }
}
