import Codecs
import Secp256k1

/// NUT-00 V3 (deprecated, still sent by older wallets): JSON `{"token": [{"mint", "proofs"}],
/// "unit", "memo"}`, proofs as `{amount, id, secret, C, dleq?, witness?}` with hex fields.
extension Token {
    static func decodeV3(json bytes: [UInt8]) throws(CashuError) -> [Token] {
        let json: JSON
        do { json = try JSON.parse(bytes) } catch {
            throw CashuError(.malformed, field: "token", error.description)
        }
        guard case .array(let entries)? = json["token"], !entries.isEmpty else {
            throw CashuError(.missingField, field: "token", "V3 token has no 'token' list")
        }
        let unit: String
        switch json["unit"] {
        case nil, .null?: unit = "sat"  // NUT-00 V3 leaves it out; every such wallet meant sat
        case .string(let value)? where !value.isEmpty: unit = value
        default: throw CashuError(.malformed, field: "unit", "is not a non-empty string")
        }
        let memo: String?
        switch json["memo"] {
        case nil, .null?: memo = nil
        case .string(let value)?: memo = value
        default: throw CashuError(.malformed, field: "memo", "is not a string")
        }
        var tokens: [Token] = []
        for (index, entry) in entries.enumerated() {
            guard let mint = entry["mint"]?.stringValue, !mint.isEmpty else {
                throw CashuError(
                    .malformed, field: "token[\(index)].mint", "missing or not a string")
            }
            guard let list = entry["proofs"]?.arrayValue, !list.isEmpty else {
                throw CashuError(
                    .malformed, field: "token[\(index)].proofs", "missing, empty or not a list")
            }
            var proofs: [Proof] = []
            for (position, proof) in list.enumerated() {
                proofs.append(try v3Proof(proof, field: "token[\(index)].proofs[\(position)]"))
            }
            let token = Token(mint: mint, unit: unit, memo: memo, proofs: proofs)
            guard token.amount != nil else {
                throw CashuError(
                    .malformed, field: "token[\(index)]", "proof amounts overflow 64 bits")
            }
            tokens.append(token)
        }
        return tokens
    }

    private static func hexField(
        _ json: JSON?, _ field: String, count: Int? = nil
    )
        throws(CashuError) -> [UInt8]
    {
        guard let text = json?.stringValue, let bytes = try? Hex.decode(text),
            count == nil || bytes.count == count
        else {
            let size = count.map { " of \($0) bytes" } ?? ""
            throw CashuError(.malformed, field: field, "missing or not hex\(size)")
        }
        return bytes
    }

    private static func v3Proof(_ json: JSON, field: String) throws(CashuError) -> Proof {
        guard case .number(let number)? = json["amount"], let amount = UInt64(number) else {
            throw CashuError(.malformed, field: "\(field).amount", "missing or not a whole number")
        }
        let keyset = try hexField(json["id"], "\(field).id")
        guard let secret = json["secret"]?.stringValue else {
            throw CashuError(.malformed, field: "\(field).secret", "missing or not a string")
        }
        let signatureBytes = try hexField(json["C"], "\(field).C", count: 33)
        guard let signature = try? PublicKey(serialized: signatureBytes) else {
            throw CashuError(.malformed, field: "\(field).C", "is not a point on the curve")
        }
        var dleq: DLEQProof?
        if let d = json["dleq"], d != .null {
            let r: [UInt8]? =
                d["r"] == nil || d["r"] == .null ? nil : try hexField(d["r"], "\(field).dleq.r")
            dleq = try DLEQProof(
                e: try hexField(d["e"], "\(field).dleq.e"),
                s: try hexField(d["s"], "\(field).dleq.s"),
                r: r)
        }
        var witness: String?
        switch json["witness"] {
        case nil, .null?: witness = nil
        case .string(let text)?: witness = text
        case let object?: witness = object.serialized  // some wallets inline the object
        }
        return Proof(
            amount: amount, keysetID: keyset, secret: secret, signature: signature, dleq: dleq,
            witness: witness)
    }
}
