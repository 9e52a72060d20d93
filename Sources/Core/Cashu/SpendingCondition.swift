import Codecs

/// A secret in NUT-10's well-known form, `[kind, {nonce, data, tags}]`: the condition the mint
/// enforces before the proof can be spent. A secret not in that form is a plain random secret.
public struct SpendingCondition: Hashable, Sendable {
    /// `P2PK` (NUT-11), `HTLC` (NUT-14), or another kind this wallet does not know.
    public let kind: String
    public let nonce: String
    public let data: String
    /// Each tag a key and one or more values, in order.
    public let tags: [[String]]

    public init(kind: String, nonce: String, data: String, tags: [[String]]) {
        self.kind = kind
        self.nonce = nonce
        self.data = data
        self.tags = tags
    }

    /// The condition `secret` states; nil when it is not NUT-10 JSON (a plain secret). A
    /// secret that is NUT-10 JSON with a malformed body is refused: a mint would not let it
    /// be spent as a plain one either.
    public static func parse(_ secret: String) throws(CashuError) -> SpendingCondition? {
        // Anything that starts like JSON must be NUT-10, strictly: a secret a lenient parser
        // (the mint's) would read as a condition and this one as plain could be spent by
        // someone else, or never.
        guard secret.utf8.first == UInt8(ascii: "[") else { return nil }
        guard let json = try? JSON.parse(Array(secret.utf8)), let items = json.arrayValue,
            items.count == 2, let kind = items[0].stringValue, case .object = items[1]
        else {
            throw CashuError(
                .malformed, field: "secret",
                "starts like a spending condition (NUT-10) but is not one, read strictly")
        }
        let body = items[1]
        guard let nonce = body["nonce"]?.stringValue else {
            throw CashuError(
                .malformed, field: "secret.nonce", "\(kind) secret has no nonce string")
        }
        guard let data = body["data"]?.stringValue else {
            throw CashuError(.malformed, field: "secret.data", "\(kind) secret has no data string")
        }
        var tags: [[String]] = []
        switch body["tags"] {
        case nil, .null?: break
        case .array(let list)?:
            for (index, tag) in list.enumerated() {
                guard let values = tag.arrayValue, !values.isEmpty,
                    case let strings = values.compactMap(\.stringValue),
                    strings.count == values.count, strings.allSatisfy({ !$0.isEmpty })
                else {
                    throw CashuError(
                        .malformed, field: "secret.tags[\(index)]",
                        "a tag is a list of one or more non-empty strings (NUT-10)")
                }
                tags.append(strings)
            }
        default:
            throw CashuError(.malformed, field: "secret.tags", "is not a list")
        }
        return SpendingCondition(kind: kind, nonce: nonce, data: data, tags: tags)
    }

    /// The secret text for this condition (compact JSON, NUT-10's field order).
    public var secret: String {
        var body: [(key: String, value: JSON)] = [
            ("nonce", .string(nonce)), ("data", .string(data)),
        ]
        if !tags.isEmpty {
            body.append(("tags", .array(tags.map { .array($0.map(JSON.string)) })))
        }
        return JSON.array([.string(kind), .object(body)]).serialized
    }

    /// The values of the tag named `key`, nil when absent; refused when it appears twice.
    func values(of key: String) throws(CashuError) -> [String]? {
        let matches = tags.filter { $0[0] == key }
        guard matches.count <= 1 else {
            throw CashuError(
                .malformed, field: "secret.tags", "tag '\(key)' appears more than once")
        }
        return matches.first.map { Array($0.dropFirst()) }
    }
}
