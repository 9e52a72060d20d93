import Codecs

/// One of a mint's keysets as `GET /v1/keysets` lists it (NUT-02), without its keys: whether
/// it still signs, its unit and input fee. Also how a token's short keyset ids are resolved.
public struct KeysetState: Sendable, Hashable {
    /// The full id (version 00: 8 bytes, version 01: 33 bytes).
    public let id: [UInt8]
    public let unit: String
    /// Whether the mint signs new outputs with it; inactive keysets' proofs can still be spent.
    public let active: Bool
    /// Fee per input in thousandths of the unit.
    public let inputFeePPK: UInt64
    /// After this Unix time the mint may refuse the keyset's proofs.
    public let finalExpiry: UInt64?

    public var idHex: String { Hex.encode(id, prefix: false) }

    /// `{"keysets": [{"id", "unit", "active", "input_fee_ppk"?, "final_expiry"?}]}`.
    static func parseList(_ json: JSON) throws(MalformedAnswer) -> [KeysetState] {
        var states: [KeysetState] = []
        for (index, entry) in try json.array("keysets", in: "answer").enumerated() {
            let path = "keysets[\(index)]"
            let id = try entry.bytes("id", in: path)
            guard (id.first == 0x00 && id.count == 8) || (id.first == 0x01 && id.count == 33)
            else { throw MalformedAnswer("\(path).id is not a full version 00 or 01 keyset id") }
            let unit = try entry.string("unit", in: path)
            guard !unit.isEmpty else { throw MalformedAnswer("\(path).unit is empty") }
            states.append(
                KeysetState(
                    id: id, unit: unit, active: try entry.bool("active", in: path),
                    inputFeePPK: try entry.optionalAmount("input_fee_ppk", in: path) ?? 0,
                    finalExpiry: try entry.optionalAmount("final_expiry", in: path)))
        }
        return states
    }
}

extension [KeysetState] {
    /// The full id of the one keyset whose id starts with `id` (a token's short id, or a full
    /// id itself); nil when none does, or when several do (NUT-02: ambiguous, refuse it).
    public func fullID(matching id: [UInt8]) -> [UInt8]? {
        guard !id.isEmpty else { return nil }
        let matches = filter { $0.id.starts(with: id) }
        return matches.count == 1 ? matches[0].id : nil
    }
}
