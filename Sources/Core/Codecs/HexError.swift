/// Why `Hex.decode` refused its input.
public struct HexError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The digits (after any "0x") do not pair up into bytes.
        case oddLength
        /// A character that is not 0-9, a-f or A-F.
        case invalidCharacter
    }

    public let kind: Kind
    /// UTF-8 offset in the input: the bad character, or the end of the text for `.oddLength`.
    public let offset: Int

    public init(kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    // The offending character itself is left out: the text may be key material.
    public var description: String {
        switch kind {
        case .oddLength: "hex: odd number of digits (text ends at offset \(offset))"
        case .invalidCharacter: "hex: invalid character at offset \(offset)"
        }
    }
}
