extension EIP712 {
    /// Why a type or value could not be encoded, and where (`path`).
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        public enum Kind: Equatable, Sendable {
            /// A type name that is neither a canonical atomic type nor a key of `types`.
            case unknownType(String)
            /// A malformed type name: `uint7`, `bytes33`, `uint`, `T[0]`, `T[x]`, or a struct
            /// named like an atomic type.
            case invalidType(String)
            /// A struct or member name that is empty or holds one of ` ()[],`.
            case invalidName(String)
            /// Two members of one struct share a name.
            case duplicateMember
            case missingMember
            /// The value has a member its struct type does not declare.
            case unexpectedMember
            /// The value's case does not fit the type (named by `expected`).
            case wrongValueKind(expected: String)
            /// A number outside the range of its uintN / intN.
            case outOfRange
            /// An address, bytesN, uint256 word or fixed-size array of the wrong length.
            case wrongLength(expected: Int, actual: Int)
        }

        public let kind: Kind
        /// Where: `Struct.member`, with `[i]` for array elements, e.g. `Mail.to.wallet`.
        public let path: String

        public init(kind: Kind, path: String) {
            self.kind = kind
            self.path = path
        }

        // Names types and paths only; values stay out of messages.
        public var description: String {
            let problem =
                switch kind {
                case .unknownType(let name): "unknown type \"\(name)\""
                case .invalidType(let name): "invalid type \"\(name)\""
                case .invalidName(let name): "invalid name \"\(name)\""
                case .duplicateMember: "duplicate member"
                case .missingMember: "missing member"
                case .unexpectedMember: "member not in the type"
                case .wrongValueKind(let expected): "value is not of type \(expected)"
                case .outOfRange: "number out of range for its type"
                case .wrongLength(let expected, let actual):
                    "length \(actual), expected \(expected)"
                }
            return "EIP-712: \(problem) at \(path)"
        }
    }
}
