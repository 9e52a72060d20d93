import Codecs

/// A Cashu token (NUT-00): proofs of one mint in one unit, with an optional memo. Read from V4
/// (`cashuB`, CBOR) and V3 (`cashuA`, JSON) text, written as V4. A V3 token that names several
/// mints is read as one `Token` per mint.
public struct Token: Hashable, Sendable {
    /// The mint's URL, without a trailing slash.
    public let mint: String
    public let unit: String
    public let memo: String?
    public let proofs: [Proof]

    /// Longest token text read (a token of a few hundred proofs is well under it).
    public static let maxTextBytes = 256 << 10

    public init(mint: String, unit: String, memo: String? = nil, proofs: [Proof]) {
        self.mint = Self.normalized(mint: mint)
        self.unit = unit
        self.memo = memo
        self.proofs = proofs
    }

    /// Sum of the proofs' amounts; nil if it overflows 64 bits (never a valid token).
    public var amount: UInt64? {
        var total: UInt64 = 0
        for proof in proofs {
            let (sum, overflow) = total.addingReportingOverflow(proof.amount)
            if overflow { return nil }
            total = sum
        }
        return total
    }

    /// A mint URL as tokens and wallets key it: no trailing slash (NUT-00).
    public static func normalized(mint: String) -> String {
        var mint = mint
        while mint.hasSuffix("/") { mint.removeLast() }
        return mint
    }

    /// Reads `cashuB…`, `cashuA…`, with or without a `cashu:` prefix. Tokens of a V3 text
    /// that names several mints come back one per mint.
    public static func decodeAll(_ text: String) throws(CashuError) -> [Token] {
        var body = Substring(text)
        if body.utf8.count > maxTextBytes {
            throw CashuError(.tooLarge, field: "token", "longer than \(maxTextBytes) bytes")
        }
        if body.lowercased().hasPrefix("cashu:") { body = body.dropFirst(6) }
        guard body.hasPrefix("cashu"), let version = body.dropFirst(5).first else {
            throw CashuError(.malformed, field: "prefix", "is not 'cashu' and a version letter")
        }
        let payload: [UInt8]
        do { payload = try Base64URL.decode(body.dropFirst(6)) } catch {
            throw CashuError(.malformed, field: "token", error.description)
        }
        switch version {
        case "B": return [try decodeV4(cbor: payload)]
        case "A": return try decodeV3(json: payload)
        default:
            throw CashuError(
                .unsupported, field: "version", "token version '\(version)' is not A (V3) or B (V4)"
            )
        }
    }

    /// Reads a token of one mint (every V4 token; a V3 token naming one mint).
    public static func decode(_ text: String) throws(CashuError) -> Token {
        let tokens = try decodeAll(text)
        guard tokens.count == 1 else {
            throw CashuError(
                .unsupported, field: "token",
                "names \(tokens.count) mints; receive each mint's proofs as its own token")
        }
        return tokens[0]
    }

    /// `cashuB` + base64url(CBOR), NUT-00 V4.
    public func encoded() -> String { "cashuB" + Base64URL.encode(cbor().encoded()) }
}
