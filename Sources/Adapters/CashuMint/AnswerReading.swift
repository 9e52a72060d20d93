import Cashu
import Codecs
import Secp256k1

/// What is wrong with a mint's answer, by field (`signatures[2].C_`); the client wraps it in a
/// `MintError.malformedAnswer`.
struct MalformedAnswer: Error, Equatable {
    let what: String

    init(_ what: String) { self.what = what }
}

/// Field readers for a mint's JSON answers: each refuses a missing field or a wrong type,
/// naming the field. Numbers are read from their text, so amounts are exact.
extension JSON {
    static func answer(_ bytes: [UInt8]) throws(MalformedAnswer) -> JSON {
        do { return try JSON.parse(bytes) } catch {
            throw MalformedAnswer("the answer is not JSON (\(error))")
        }
    }

    /// The value under `key`, nil when absent or null.
    func optional(_ key: String) -> JSON? {
        switch self[key] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    func required(_ key: String, in path: String) throws(MalformedAnswer) -> JSON {
        guard case .object = self else { throw MalformedAnswer("\(path) is not an object") }
        guard let value = optional(key) else { throw MalformedAnswer("\(path).\(key) is missing") }
        return value
    }

    func string(_ key: String, in path: String) throws(MalformedAnswer) -> String {
        guard let text = try required(key, in: path).stringValue else {
            throw MalformedAnswer("\(path).\(key) is not a string")
        }
        return text
    }

    func optionalString(_ key: String, in path: String) throws(MalformedAnswer) -> String? {
        guard let value = optional(key) else { return nil }
        guard let text = value.stringValue else {
            throw MalformedAnswer("\(path).\(key) is not a string")
        }
        return text
    }

    func amount(_ key: String, in path: String) throws(MalformedAnswer) -> UInt64 {
        try Self.whole(required(key, in: path), "\(path).\(key)")
    }

    func optionalAmount(_ key: String, in path: String) throws(MalformedAnswer) -> UInt64? {
        guard let value = optional(key) else { return nil }
        return try Self.whole(value, "\(path).\(key)")
    }

    static func whole(_ value: JSON, _ field: String) throws(MalformedAnswer) -> UInt64 {
        guard case .number(let text) = value, let number = UInt64(text) else {
            throw MalformedAnswer("\(field) is not a whole number of 64 bits")
        }
        return number
    }

    func bool(_ key: String, in path: String) throws(MalformedAnswer) -> Bool {
        guard case .bool(let value) = try required(key, in: path) else {
            throw MalformedAnswer("\(path).\(key) is not true or false")
        }
        return value
    }

    func array(_ key: String, in path: String) throws(MalformedAnswer) -> [JSON] {
        guard let items = try required(key, in: path).arrayValue else {
            throw MalformedAnswer("\(path).\(key) is not a list")
        }
        return items
    }

    func bytes(
        _ key: String, in path: String, count: Int? = nil
    ) throws(MalformedAnswer)
        -> [UInt8]
    {
        let text = try string(key, in: path)
        guard !text.hasPrefix("0x"), let bytes = try? Hex.decode(text), !bytes.isEmpty else {
            throw MalformedAnswer("\(path).\(key) is not hex")
        }
        if let count, bytes.count != count {
            throw MalformedAnswer("\(path).\(key) is \(bytes.count) bytes, not \(count)")
        }
        return bytes
    }

    /// A compressed secp256k1 point (33 bytes, on the curve).
    func point(_ key: String, in path: String) throws(MalformedAnswer) -> PublicKey {
        let bytes = try bytes(key, in: path, count: 33)
        guard let point = try? PublicKey(serialized: bytes) else {
            throw MalformedAnswer("\(path).\(key) is not a point on secp256k1")
        }
        return point
    }
}

extension BlindSignature {
    /// NUT-00 `BlindSignature`: `{"amount", "id", "C_", "dleq": {"e", "s"}?}`.
    static func parse(_ json: JSON, at path: String) throws(MalformedAnswer) -> BlindSignature {
        let dleq: DLEQProof?
        if let proof = json.optional("dleq") {
            let e = try proof.bytes("e", in: "\(path).dleq", count: 32)
            let s = try proof.bytes("s", in: "\(path).dleq", count: 32)
            do { dleq = try DLEQProof(e: e, s: s, r: nil) } catch {
                throw MalformedAnswer("\(path).dleq: \(error.message)")
            }
        } else {
            dleq = nil
        }
        return BlindSignature(
            amount: try json.amount("amount", in: path), keysetID: try json.bytes("id", in: path),
            signature: try json.point("C_", in: path), dleq: dleq)
    }

    /// The `signatures` of a swap or mint answer: one per output, in the outputs' order, each
    /// for the output's amount and keyset (NUT-03, NUT-04).
    static func parse(
        signaturesFor outputs: [BlindedMessage], in answer: JSON
    ) throws(MalformedAnswer) -> [BlindSignature] {
        let list = try answer.array("signatures", in: "answer")
        guard list.count == outputs.count else {
            throw MalformedAnswer(
                "signatures has \(list.count) entries for \(outputs.count) outputs")
        }
        var signatures: [BlindSignature] = []
        for (index, (entry, output)) in zip(list, outputs).enumerated() {
            let path = "signatures[\(index)]"
            let signature = try parse(entry, at: path)
            guard signature.amount == output.amount else {
                throw MalformedAnswer(
                    "\(path).amount is \(signature.amount), the output asked \(output.amount)")
            }
            guard signature.keysetID == output.keysetID else {
                throw MalformedAnswer("\(path).id is not the output's keyset")
            }
            signatures.append(signature)
        }
        return signatures
    }
}
