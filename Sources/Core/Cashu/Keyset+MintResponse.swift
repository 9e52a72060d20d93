import Codecs
import Secp256k1

/// Keysets from a mint's `GET /v1/keys` answer (NUT-01): each checked against its id (NUT-02)
/// before it is trusted. Fields a newer mint adds are ignored; a keyset this wallet cannot
/// use (an unknown id version) is skipped and named, not fatal to the others.
extension Keyset {
    public struct MintKeys: Sendable {
        public let keysets: [Keyset]
        /// Keysets left out, each with why.
        public let skipped: [(id: String, reason: String)]
    }

    public static func parse(mintKeys bytes: [UInt8]) throws(CashuError) -> MintKeys {
        let json: JSON
        do { json = try JSON.parse(bytes) } catch {
            throw CashuError(.malformed, field: "keys", "the mint's answer is not JSON: \(error)")
        }
        guard let list = json["keysets"]?.arrayValue else {
            throw CashuError(
                .missingField, field: "keysets", "the mint's answer has no keysets list")
        }
        var keysets: [Keyset] = []
        var skipped: [(id: String, reason: String)] = []
        for (index, entry) in list.enumerated() {
            let field = "keysets[\(index)]"
            guard let id = entry["id"]?.stringValue, let idBytes = try? Hex.decode(id) else {
                throw CashuError(.malformed, field: "\(field).id", "missing or not hex")
            }
            guard let unit = entry["unit"]?.stringValue, !unit.isEmpty else {
                throw CashuError(.malformed, field: "\(field).unit", "missing or not a string")
            }
            guard case .object(let pairs)? = entry["keys"] else {
                throw CashuError(.malformed, field: "\(field).keys", "missing or not an object")
            }
            var keys: [UInt64: PublicKey] = [:]
            for (amountText, value) in pairs {
                guard let amount = UInt64(amountText), amount > 0,
                    let hex = value.stringValue, let keyBytes = try? Hex.decode(hex),
                    keyBytes.count == 33,
                    let key = try? PublicKey(serialized: keyBytes)
                else {
                    throw CashuError(
                        .malformed, field: "\(field).keys.\(amountText)",
                        "is not a positive amount with a 33-byte compressed key")
                }
                keys[amount] = key
            }
            func number(_ key: String) throws(CashuError) -> UInt64? {
                if entry[key] == nil || entry[key] == .null { return nil }
                guard case .number(let text)? = entry[key], let value = UInt64(text) else {
                    throw CashuError(.malformed, field: "\(field).\(key)", "is not a whole number")
                }
                return value
            }
            let active: Bool
            switch entry["active"] {
            case nil, .null?: active = true
            case .bool(let value)?: active = value
            default: throw CashuError(.malformed, field: "\(field).active", "is not true or false")
            }
            do {
                keysets.append(
                    try Keyset(
                        id: idBytes, unit: unit, keys: keys,
                        inputFeePPK: try number("input_fee_ppk") ?? 0,
                        finalExpiry: try number("final_expiry"), active: active))
            } catch  where error.kind == .unsupported {
                skipped.append((id, error.message))
            }
        }
        return MintKeys(keysets: keysets, skipped: skipped)
    }
}
