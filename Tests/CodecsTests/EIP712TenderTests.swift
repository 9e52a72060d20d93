import Codecs
import Foundation
import Testing

/// Tender's Note, Transfer and Receipt (and a Kitchen struct with every other member kind)
/// against eth-account, from Vectors/eip712_vectors.py.
@Suite struct EIP712TenderTests {
    struct Case: CustomTestStringConvertible, @unchecked Sendable {
        // @unchecked: holds only immutable JSON objects parsed once, read-only afterwards.
        let json: [String: Any]
        var testDescription: String { json["name"] as? String ?? "?" }
    }

    static let cases: [Case] = {
        let data = Data(EIP712Vectors.json.utf8)
        let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
        return list.map(Case.init)
    }()

    @Test func thereAreVectors() {
        #expect(Self.cases.count == 20)
    }

    @Test(arguments: cases)
    func matchesEthAccount(_ vector: Case) throws {
        let json = vector.json
        let types = try Self.types(
            fromJSON: try #require(json["types"] as? [String: [[String: String]]]))
        let primary = try #require(json["primaryType"] as? String)
        let message = try Self.structure(try #require(json["message"]), type: primary, types: types)
        let domain = try Self.structure(
            try #require(json["domain"]), type: "EIP712Domain", types: types)

        #expect(try EIP712.encodeType(primary, types: types) == json["encodeType"] as? String)
        #expect(hex(try EIP712.typeHash(primary, types: types)) == json["typeHash"] as? String)
        #expect(
            hex(try EIP712.hashStruct("EIP712Domain", value: domain, types: types))
                == json["domainSeparator"] as? String)
        #expect(
            hex(try EIP712.hashStruct(primary, value: message, types: types))
                == json["structHash"] as? String)
        #expect(
            hex(
                try EIP712.digest(
                    primaryType: primary, message: message, domain: domain, types: types))
                == json["digest"] as? String)
    }

    // The canonical type strings of Docs/PROTOCOL.md §2, as the vectors' referee also wrote them.
    @Test func tenderTypeStrings() throws {
        let byName = Dictionary(
            Self.cases.map {
                ($0.json["primaryType"] as? String ?? "", $0.json["encodeType"] as? String ?? "")
            },
            uniquingKeysWith: { first, _ in first })
        #expect(
            byName["Transfer"]
                == "Transfer(bytes32[] inputs,Output[] outputs)Output(address owner,uint128 amount)"
        )
        #expect(
            byName["Note"]
                == "Note(bytes32 serial,address issuer,address asset,uint128 amount,address owner,uint64 expiry)"
        )
        #expect(byName["Receipt"] == "Receipt(bytes32 requestId,bytes32 paymentDigest,uint64 time)")
    }

    // MARK: JSON → EIP712 (the test's own reading, guided by the declared types)

    static func types(fromJSON json: [String: [[String: String]]]) throws -> EIP712.Types {
        try json.mapValues { members in
            try members.map {
                EIP712.Member(name: try #require($0["name"]), type: try #require($0["type"]))
            }
        }
    }

    static func structure(
        _ json: Any, type: String, types: EIP712.Types
    ) throws -> [String: EIP712.Value] {
        let object = try #require(json as? [String: Any])
        var result: [String: EIP712.Value] = [:]
        for member in try #require(types[type]) {
            result[member.name] = try value(
                try #require(object[member.name]), type: member.type, types: types)
        }
        return result
    }

    static func value(_ json: Any, type: String, types: EIP712.Types) throws -> EIP712.Value {
        if type.hasSuffix("]") {
            let element = String(type[..<(try #require(type.lastIndex(of: "[")))])
            return .array(
                try (try #require(json as? [Any])).map {
                    try value($0, type: element, types: types)
                })
        }
        if types[type] != nil {
            return .structure(try structure(json, type: type, types: types))
        }
        switch type {
        case "address": return .address(h(try #require(json as? String)))
        case "bool": return .bool(try #require(json as? Bool))
        case "string": return .string(try #require(json as? String))
        case "bytes": return .bytes(h(try #require(json as? String)))
        default: break
        }
        let text = try #require(json as? String)
        if type.hasPrefix("bytes") { return .fixedBytes(h(text)) }
        if type.hasPrefix("uint") {
            return text.hasPrefix("0x") ? .uint256Word(h(text)) : .uint(try #require(UInt128(text)))
        }
        return .int(try #require(Int64(text)))
    }
}
