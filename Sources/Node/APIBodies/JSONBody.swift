import Foundation

/// A JSON body read as `T`, or a refusal naming what is wrong with it.
public enum JSONBody {
    /// `fields`: every field the body may have. One it may not is refused by name: a typo
    /// (`expires_in`) would otherwise leave its field at the default, unsaid.
    public static func decode<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8], fields: [String]
    ) throws(BodyRefusal) -> T {
        let value: T
        do { value = try JSONDecoder().decode(T.self, from: Data(bytes)) } catch {
            throw .badRequest("the body is not the JSON expected: \(describe(error))")
        }
        if let keys = try? JSONDecoder().decode(TopLevelKeys.self, from: Data(bytes)),
            let unknown = keys.names.filter({ !fields.contains($0) }).min()
        {
            throw .badRequest(
                "unknown field \"\(unknown)\" (the body takes \(fields.joined(separator: ", ")))")
        }
        return value
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.underlyingError.map { "\($0.localizedDescription)" }
                ?? context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\"\(path)\" must be \(type == String.self ? "a string" : "\(type)")"
        case DecodingError.valueNotFound(_, let context):
            return "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is null"
        default: return "\(error)"
        }
    }
}

/// The names of a JSON object's fields, read by the same decoder as the body.
private struct TopLevelKeys: Decodable {
    let names: [String]

    private struct Name: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        names = try decoder.container(keyedBy: Name.self).allKeys.map(\.stringValue)
    }
}
