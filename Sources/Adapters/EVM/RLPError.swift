/// Why RLP input was refused, and where (a byte offset into the input).
public struct RLPError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The input ends inside an item.
        case truncated
        /// Bytes after the one item.
        case trailingBytes
        /// A valid but not minimal encoding.
        case nonCanonical(String)
        /// A length or integer wider than this decoder accepts.
        case tooLong
        /// Lists nested past `RLP.maximumDepth`.
        case tooDeep
        /// A list where a string was expected, or the other way round.
        case expectedString
        case expectedList
        /// A decoded structure with the wrong shape (a transaction's field count, a field's value).
        case invalidField(String)
    }

    public let kind: Kind
    public let offset: Int

    public init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let what =
            switch kind {
            case .truncated: "input ends inside an item"
            case .trailingBytes: "bytes after the item"
            case .nonCanonical(let why): "non-canonical encoding: \(why)"
            case .tooLong: "length or integer too long"
            case .tooDeep: "lists nested too deeply"
            case .expectedString: "expected a string, found a list"
            case .expectedList: "expected a list, found a string"
            case .invalidField(let why): why
            }
        return "RLP: \(what) (offset \(offset))"
    }
}
