import Codecs
import Foundation
import Testing

/// Random values against cbor2 (Vectors/cbor_vectors.py explains the format and how cbor2's
/// length-first key order is handled).
@Suite struct CBORCrossCheckTests {
    struct Vector {
        let value: CBOR
        let expected: [UInt8]
        let cbor2: [UInt8]
    }

    static func vectors() throws -> [Vector] {
        let data = Data(CBORVectors.json.utf8)
        let parsed = try JSONSerialization.jsonObject(with: data)
        let list = try #require(parsed as? [[String: Any]])
        return try list.map { entry in
            let value = try #require(entry["value"])
            return Vector(
                value: try cbor(fromJSON: value),
                expected: h(entry["hex"] as? String ?? "zz"),
                cbor2: h(entry["cbor2"] as? String ?? "zz"))
        }
    }

    /// The test's own reading of the tagged JSON; uses nothing from the CBOR code under test.
    static func cbor(fromJSON json: Any) throws -> CBOR {
        let object = try #require(json as? [String: Any])
        let (key, payload) = try #require(object.first { $0.key != "value" })
        let text = payload as? String ?? ""
        switch key {
        case "uint": return .unsigned(try #require(UInt64(text)))
        case "nint": return .negative(try #require(UInt64(text)))
        case "bytes": return .bytes(h(text))
        case "text": return .text(try #require(String(validating: h(text), as: UTF8.self)))
        case "array":
            let items = try #require(payload as? [Any])
            return .array(try items.map(cbor(fromJSON:)))
        case "map":
            let pairs = try #require(payload as? [[Any]])
            return .map(
                try pairs.map { CBOR.Entry(try cbor(fromJSON: $0[0]), try cbor(fromJSON: $0[1])) })
        case "tag":
            let content = try #require(object["value"])
            return .tagged(try #require(UInt64(text)), try cbor(fromJSON: content))
        case "simple": return .simple(try #require((payload as? NSNumber)?.uint8Value))
        case "bool": return .boolean(try #require(payload as? Bool))
        case "null": return .null
        case "undefined": return .undefined
        case "float": return .float(Double(bitPattern: h(text).reduce(0) { $0 << 8 | UInt64($1) }))
        default:
            Issue.record("unknown vector key \(key)")
            return .null
        }
    }

    @Test func encodingMatchesCBOR2() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 400)
        for vector in vectors {
            #expect(vector.value.encoded() == vector.expected, "\(hex(vector.expected))")
        }
    }

    @Test func decodingMatchesCBOR2() throws {
        for vector in try Self.vectors() {
            let decoded = try CBOR.decode(vector.expected)
            #expect(decoded == sortedMaps(vector.value), "\(hex(vector.expected))")
            // cbor2's own canonical bytes: the same items, keys maybe in RFC 7049 order.
            let fromCBOR2 = try CBOR.decode(vector.cbor2, options: .lenient)
            #expect(fromCBOR2.encoded() == vector.expected)
            if vector.cbor2 != vector.expected {
                #expect(decodeError(vector.cbor2)?.kind == .unsortedMapKeys)
            }
        }
    }
}
