/// A Cashu payment request: NUT-18 (`creqA` + base64url CBOR) or NUT-26 (`creqb1…`, bech32m
/// over TLV), optionally behind `cashu:`. Read in full for display; Tender cannot pay it.
///
/// Optional fields stay nil when the code leaves them out, so a request reads back as exactly
/// the JSON object NUT-18 describes (keys `i`, `a`, `u`, `s`, `m`, `d`, `t`, `nut10`).
public struct CashuPaymentRequest: Hashable, Sendable {
    public enum Encoding: String, Hashable, Sendable {
        /// NUT-18: `creqA` + base64url(CBOR).
        case creqA
        /// NUT-26: bech32m, human-readable part `creqb`, TLV inside.
        case creqB
    }

    /// Where the payer sends the ecash (NUT-18 "Transport").
    public struct Transport: Hashable, Sendable {
        /// `nostr`, `post`, or a type a later NUT defines.
        public let type: String
        /// An `nprofile`/`npub` for Nostr, a URL for HTTP POST.
        public let target: String
        /// `[tag, value, …]` tuples, e.g. `["n", "17"]`; nil when the code has none.
        public let tags: [[String]]?
    }

    /// The NUT-10 spending condition the payee requires of the ecash.
    public struct Lock: Hashable, Sendable {
        /// `P2PK`, `HTLC`, …
        public let kind: String
        /// For P2PK the public key (hex), for HTLC the hash.
        public let data: String
        public let tags: [[String]]?
    }

    public let encoding: Encoding
    /// `i`: the payment id the payer echoes back.
    public let id: String?
    /// `a`: in the smallest unit of `unit` (NUT-01); nil when the payer chooses.
    public let amount: UInt64?
    /// `u`: `sat`, `msat`, `usd`, … (required when `amount` is given).
    public let unit: String?
    /// `s`: whether the request may be paid only once.
    public let singleUse: Bool?
    /// `m`: the mints the payee accepts ecash from.
    public let mints: [String]?
    /// `d`: what the payment is for.
    public let requestDescription: String?
    /// `t`: in order of preference; nil or empty means in-band.
    public let transports: [Transport]?
    /// `nut10`.
    public let lock: Lock?

    public static let maxRequestBytes = 64 << 10

    /// Reads `creqA…` or `creqb1…` (either case), with or without `cashu:`.
    public static func decode(_ text: String) throws(PaymentCodeError) -> CashuPaymentRequest {
        let body = URIText.strip(scheme: "cashu", from: text[...]) ?? text[...]
        guard body.utf8.count <= maxRequestBytes * 8 / 5 + 16 else {
            throw PaymentCodeError(
                .tooLarge, field: "request", "longer than \(maxRequestBytes) bytes")
        }
        let head = String(decoding: body.utf8.prefix(6).map(URIText.asciiLower), as: UTF8.self)
        if head.hasPrefix("creqa") { return try CashuRequestCBOR.decode(body.dropFirst(5)) }
        if head == "creqb1" { return try CashuRequestTLV.decode(body) }
        throw PaymentCodeError(
            .wrongScheme, field: "prefix", "is not 'creqA' (NUT-18) or 'creqb1' (NUT-26)")
    }

    /// Whether `text` (after an optional `cashu:`) starts like a payment request.
    static func looksLikeRequest(_ text: Substring) -> Bool {
        let body = URIText.strip(scheme: "cashu", from: text) ?? text
        return body.utf8.prefix(4).map(URIText.asciiLower).elementsEqual("creq".utf8)
    }

    public var explanation: String {
        var text =
            "Cashu payment request (\(encoding == .creqA ? "NUT-18, creqA" : "NUT-26, creqB"))"
        if let amount {
            text += ": pay \(CashuUnit.text(UInt128(amount), unit: unit))"
        } else {
            text += ": pay an amount the payer chooses"
            if let unit { text += " in \(unit)" }
        }
        switch mints ?? [] {
        case []: text += " in ecash from any mint"
        case let only where only.count == 1: text += " in ecash from mint \(only[0])"
        case let several:
            text += " in ecash from one of the mints \(several.joined(separator: ", "))"
        }
        text += "."
        if let requestDescription { text += " Description: \"\(requestDescription)\"." }
        if let id { text += " Payment id \(id)." }
        if singleUse == true { text += " Single use." }
        if let lock { text += " " + Self.explain(lock) }
        let transports = transports ?? []
        if transports.isEmpty {
            text +=
                " No transport given: the ecash goes in-band, with whatever carries the request."
        } else {
            text += " Send it " + transports.map(Self.explain).joined(separator: "; or ") + "."
        }
        return text + " Tender cannot pay it: it asks for Cashu ecash; use a Cashu wallet."
    }

    private static func explain(_ lock: Lock) -> String {
        var text =
            switch lock.kind {
            case "P2PK": "The ecash must be locked to key \(lock.data) (NUT-11 P2PK)"
            case "HTLC": "The ecash must be locked to the hash \(lock.data) (NUT-14 HTLC)"
            default:
                "The ecash must carry the NUT-10 '\(lock.kind)' condition with data \(lock.data)"
            }
        if let tags = lock.tags, !tags.isEmpty { text += ", with \(explain(tags))" }
        return text + "."
    }

    private static func explain(_ transport: Transport) -> String {
        let tags = transport.tags ?? []
        switch transport.type {
        case "nostr":
            let nips = tags.filter { $0.first == "n" }.flatMap { $0.dropFirst() }
            let others = tags.filter { $0.first != "n" }
            var text = "by Nostr to \(transport.target)"
            if !nips.isEmpty { text += " (NIP-\(nips.joined(separator: ", NIP-")))" }
            if !others.isEmpty { text += " with \(explain(others))" }
            return text
        case "post":
            return "by HTTP POST to \(transport.target)"
                + (tags.isEmpty ? "" : " with \(explain(tags))")
        default:
            return "by '\(transport.type)' to \(transport.target)"
                + (tags.isEmpty ? "" : " with \(explain(tags))")
        }
    }

    private static func explain(_ tags: [[String]]) -> String {
        tags.map { tag in
            (tag.first ?? "") + "=" + tag.dropFirst().joined(separator: ",")
        }.joined(separator: ", ")
    }
}

extension CashuPaymentRequest {
    /// A request this payee makes (NUT-18): in-band (no transport: the payer shows the token
    /// back), for `amount` of `unit` from `mints`, locked to `lockKey` when given.
    public init(
        id: String?, amount: UInt64?, unit: String?, singleUse: Bool? = true, mints: [String]?,
        description: String? = nil, lockKey: String? = nil
    ) {
        self.init(
            encoding: .creqA, id: id, amount: amount, unit: unit, singleUse: singleUse,
            mints: mints, requestDescription: description, transports: nil,
            lock: lockKey.map { Lock(kind: "P2PK", data: $0, tags: nil) })
    }

    /// As NUT-18 writes it: `creqA` + base64url(CBOR).
    public var encodedA: String { CashuRequestCBOR.encode(self) }
}
