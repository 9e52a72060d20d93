import Foundation

/// A JSON body read as `T`, or a refusal naming what is wrong with it.
public enum JSONBody {
    public static func decode<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8]
    ) throws(BodyRefusal) -> T {
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch {
            throw .badRequest("the body is not the JSON expected: \(describe(error))")
        }
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
