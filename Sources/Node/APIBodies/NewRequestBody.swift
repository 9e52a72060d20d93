import Tender

/// The body of `POST /api/requests`: `{"amount", "asset"?, "memo"?, "expiresIn"?}`.
public struct NewRequestBody: Decodable, Sendable {
    let amount: String
    let asset: String?
    let memo: String?
    let expiresIn: UInt64?

    /// What a request is made of, each field checked.
    public struct Terms: Sendable, Equatable {
        public let amount: Amount
        public let asset: Address
        public let memo: String
        public let lifetime: UInt64
    }

    /// The terms `bytes` ask for; a request lives at most `longestLifetime` seconds.
    public static func read(
        _ bytes: [UInt8], longestLifetime: UInt64
    ) throws(BodyRefusal) -> Terms {
        let body = try JSONBody.decode(
            NewRequestBody.self, from: bytes, fields: ["amount", "asset", "memo", "expiresIn"])
        let lifetime = body.expiresIn ?? 900
        guard (1...longestLifetime).contains(lifetime) else {
            throw .badRequest("expiresIn must be 1…\(longestLifetime) seconds")
        }
        return Terms(
            amount: try APIInput.amount(body.amount), asset: try APIInput.asset(body.asset),
            memo: body.memo ?? "", lifetime: lifetime)
    }
}
