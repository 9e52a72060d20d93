/// A JSON document as JSON-RPC carries it: decoded without loss (Foundation's
/// JSONSerialization blurs booleans and numbers on Linux), then read field by field.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Integral numbers (request ids) as integers: "1", not "1.0".
            if let integer = Int64(exactly: value) {
                try container.encode(integer)
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    /// A short, bounded rendering for error messages (a hostile server may send megabytes).
    var excerpt: String {
        let text: String
        switch self {
        case .null: text = "null"
        case .bool(let value): text = "\(value)"
        case .number(let value): text = "\(value)"
        case .string(let value): text = "\"\(value)\""
        case .array(let items): text = "an array of \(items.count)"
        case .object(let fields): text = "an object with keys \(fields.keys.sorted())"
        }
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
