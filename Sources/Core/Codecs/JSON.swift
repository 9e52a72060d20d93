/// A small strict JSON reader and writer (RFC 8259), so the core modules need no Foundation.
/// Numbers are kept as their text and converted by the caller, exactly; objects keep their
/// order (Cashu signs secrets as text, so what is written is what was meant). Duplicate
/// object keys, trailing commas, comments, and nesting deeper than 32 are refused.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSON])
    case object([(key: String, value: JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public subscript(key: String) -> JSON? {
        if case .object(let entries) = self { entries.first { $0.key == key }?.value } else { nil }
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.offset == bytes.count else { throw parser.fail("text after the JSON value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var offset = 0

        func fail(_ what: String) -> JSONError { JSONError(reason: what, offset: offset) }

        mutating func skipSpace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) {
                offset += 1
            }
        }

        mutating func expect(_ literal: String) throws(JSONError) {
            let utf8 = Array(literal.utf8)
            guard bytes.count - offset >= utf8.count,
                Array(bytes[offset..<(offset + utf8.count)]) == utf8
            else { throw fail("expected '\(literal)'") }
            offset += utf8.count
        }

        mutating func value(depth: Int) throws(JSONError) -> JSON {
            guard depth < 32 else { throw fail("nesting too deep") }
            guard offset < bytes.count else { throw fail("unexpected end") }
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                offset += 1
                var entries: [(key: String, value: JSON)] = []
                var keys: Set<String> = []
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(entries)
                }
                while true {
                    skipSpace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                        throw fail("expected a string key")
                    }
                    let key = try string()
                    guard keys.insert(key).inserted else { throw fail("duplicate key '\(key)'") }
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    entries.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard offset < bytes.count else { throw fail("unexpected end in object") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    try expect("}")
                    return .object(entries)
                }
            case UInt8(ascii: "["):
                offset += 1
                var items: [JSON] = []
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(items)
                }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard offset < bytes.count else { throw fail("unexpected end in array") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    try expect("]")
                    return .array(items)
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default: return .number(try number())
            }
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
        mutating func number() throws(JSONError) -> String {
            let start = offset
            func digits(_ parser: inout Parser) -> Int {
                let from = parser.offset
                while parser.offset < parser.bytes.count,
                    (0x30...0x39).contains(parser.bytes[parser.offset])
                {
                    parser.offset += 1
                }
                return parser.offset - from
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            let integerStart = offset
            let count = digits(&self)
            guard count > 0 else { throw fail("expected a value") }
            if count > 1 && bytes[integerStart] == UInt8(ascii: "0") { throw fail("leading zero") }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                guard digits(&self) > 0 else { throw fail("digits expected after '.'") }
            }
            if offset < bytes.count,
                bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")
            {
                offset += 1
                if offset < bytes.count,
                    bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")
                {
                    offset += 1
                }
                guard digits(&self) > 0 else { throw fail("digits expected in exponent") }
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }

        mutating func string() throws(JSONError) -> String {
            offset += 1  // opening quote
            var out: [UInt8] = []
            while true {
                guard offset < bytes.count else { throw fail("unterminated string") }
                let byte = bytes[offset]
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: out, as: UTF8.self) else {
                        throw fail("string is not UTF-8")
                    }
                    return text
                case UInt8(ascii: "\\"):
                    guard offset < bytes.count else { throw fail("unterminated escape") }
                    let escape = bytes[offset]
                    offset += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                        out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            try expect("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else {
                                throw fail("unpaired surrogate")
                            }
                            scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else {
                            throw fail("unpaired surrogate")
                        }
                        out.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: throw fail("unknown escape")
                    }
                case 0..<0x20: throw fail("control character in string")
                default: out.append(byte)
                }
            }
        }

        mutating func hex4() throws(JSONError) -> UInt32 {
            guard bytes.count - offset >= 4 else { throw fail("short \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = Hex.value(of: bytes[offset]) else {
                    throw fail("bad \\u escape")
                }
                value = value << 4 | UInt32(digit)
                offset += 1
            }
            return value
        }
    }
}

/// Why `JSON.parse` refused its input: what was wrong, at which byte.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public let reason: String
    public let offset: Int

    public var description: String { "JSON: \(reason) at offset \(offset)" }
}

extension JSON {
    /// Compact text (no spaces), object keys in their order; strings escaped as RFC 8259 §7
    /// requires and no more (`/` and non-ASCII are written as they are).
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): JSON.writeString(text, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let entries):
            out += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += "," }
                JSON.writeString(entry.key, to: &out)
                out += ":"
                entry.value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{00}"..."\u{1F}":
                let digits = Array("0123456789abcdef")
                out += "\\u00\(digits[Int(scalar.value >> 4)])\(digits[Int(scalar.value & 15)])"
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// The text of a string value, nil for any other kind.
    public var stringValue: String? { if case .string(let text) = self { text } else { nil } }

    /// The items of an array value, nil for any other kind.
    public var arrayValue: [JSON]? { if case .array(let items) = self { items } else { nil } }
}
