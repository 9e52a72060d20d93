/// A member type string, parsed: `Output[]` is `.array(.structure("Output"), length: nil)`.
indirect enum EIP712FieldType: Equatable {
    case address
    case bool
    case string
    case bytes
    case uint(bits: Int)
    case int(bits: Int)
    case fixedBytes(Int)
    case structure(String)
    case array(EIP712FieldType, length: Int?)

    /// Parses `text`; struct names must be keys of `types`. Throws with `path` on failure.
    init(_ text: String, types: EIP712.Types, path: String) throws(EIP712.Error) {
        if text.hasSuffix("]") {
            guard let open = text.lastIndex(of: "[") else {
                throw EIP712.Error(kind: .invalidType(text), path: path)
            }
            let digits = text[text.index(after: open)..<text.index(before: text.endIndex)]
            var length: Int?
            if !digits.isEmpty {
                // Canonical decimal only: "T[02]" would hash differently from "T[2]".
                guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0",
                    digits.count <= 9, let value = Int(digits)
                else { throw EIP712.Error(kind: .invalidType(text), path: path) }
                length = value
            }
            let element = try EIP712FieldType(String(text[..<open]), types: types, path: path)
            self = .array(element, length: length)
            return
        }
        if let atomic = Self.atomic(text) {
            guard types[text] == nil else {
                throw EIP712.Error(kind: .invalidType(text), path: path)
            }
            self = atomic
            return
        }
        guard types[text] != nil else {
            // "uint", "uint7", "bytes33": an atomic name gone wrong rather than a missing struct.
            let looksAtomic = ["uint", "int", "bytes"].contains { prefix in
                text.hasPrefix(prefix)
                    && text.dropFirst(prefix.count).allSatisfy { $0.isASCII && $0.isNumber }
            }
            let kind: EIP712.Error.Kind = looksAtomic ? .invalidType(text) : .unknownType(text)
            throw EIP712.Error(kind: kind, path: path)
        }
        self = .structure(text)
    }

    private static func atomic(_ text: String) -> EIP712FieldType? {
        switch text {
        case "address": return .address
        case "bool": return .bool
        case "string": return .string
        case "bytes": return .bytes
        default: break
        }
        if let bits = size(text, after: "uint"), bits % 8 == 0, (8...256).contains(bits) {
            return .uint(bits: bits)
        }
        if let bits = size(text, after: "int"), bits % 8 == 0, (8...256).contains(bits) {
            return .int(bits: bits)
        }
        if let count = size(text, after: "bytes"), (1...32).contains(count) {
            return .fixedBytes(count)
        }
        return nil
    }

    /// The decimal number after `prefix`, without sign or leading zeros.
    private static func size(_ text: String, after prefix: String) -> Int? {
        guard text.hasPrefix(prefix) else { return nil }
        let digits = text.dropFirst(prefix.count)
        guard (1...3).contains(digits.count), digits.first != "0",
            digits.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int(digits)
    }

    /// Struct types this type mentions (through arrays too).
    var structName: String? {
        switch self {
        case .structure(let name): name
        case .array(let element, _): element.structName
        default: nil
        }
    }

    /// How the type reads in messages: `uint128`, `bytes32`, `Output[]`.
    var name: String {
        switch self {
        case .address: "address"
        case .bool: "bool"
        case .string: "string"
        case .bytes: "bytes"
        case .uint(let bits): "uint\(bits)"
        case .int(let bits): "int\(bits)"
        case .fixedBytes(let count): "bytes\(count)"
        case .structure(let name): name
        case .array(let element, let length): "\(element.name)[\(length.map(String.init) ?? "")]"
        }
    }
}
