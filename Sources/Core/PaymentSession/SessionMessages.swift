import Codecs

/// What travels inside an encrypted session (Docs/PROTOCOL.md §10): deterministic CBOR maps
/// with small integer keys. Every envelope inside is checked by the wallet as if it came from
/// a file; the session only carries them.
public enum SessionMessages {
    /// At most this many evidence envelopes in one message, each at most `maxEvidenceBytes`, so a
    /// hello always fits in one handshake message.
    public static let maxEvidenceItems = 16
    public static let maxEvidenceBytes = 3 * 1024
    /// The largest envelope a message carries: the wire format's own cap (1 MiB).
    public static let maxEnvelopeBytes = 1 << 20
    /// The longest Cashu token text an offer carries: a token reader's own cap (256 KiB).
    public static let maxCashuTokenBytes = 256 << 10
    /// The largest session message: an envelope, the evidence and their CBOR framing.
    public static let maxMessageBytes =
        maxEnvelopeBytes + maxEvidenceItems * (maxEvidenceBytes + 8) + 64

    static let decoding = CBORDecodingOptions(
        maxInputBytes: maxMessageBytes, maxDepth: 4, maxCollectionCount: maxEvidenceItems + 4,
        maxStringBytes: maxEnvelopeBytes)
}

/// The payee's opening: its current request (empty when it offers none) and the double-spend
/// evidence it holds.
public struct Hello: Sendable, Equatable {
    /// A `request` envelope, or nothing.
    public var request: [UInt8]
    public var evidence: [[UInt8]]

    public init(request: [UInt8], evidence: [[UInt8]] = []) {
        self.request = request
        self.evidence = evidence
    }

    var cbor: CBOR {
        .map([CBOR.Entry(.unsigned(1), .bytes(request)), evidenceEntry(evidence)])
    }

    init(_ cbor: CBOR) throws(SessionError) {
        request = try field(cbor, 1, "request").bytes("request")
        evidence = try evidenceList(cbor)
        try onlyKeys(cbor, [1, 2], in: "hello")
    }
}

/// The payer's turn: a payment (or the same payment again, to settle one in doubt), a Cashu
/// token or the question that comes before one, or a refusal to pay what the request asks,
/// and the evidence it holds.
public struct Offer: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// A `payment` envelope.
        case payment([UInt8])
        /// A Cashu token as its text (`cashuB…`, `cashuA…`): the payee checks it offline.
        case cashu(String)
        /// Which Cashu tokens does the payee take? (Answered with its terms, or refused.)
        case cashuTermsAsked
        /// The payer will not pay (and says why); the session ends.
        case decline(String)
    }

    public var content: Content
    public var evidence: [[UInt8]]

    public init(_ content: Content, evidence: [[UInt8]] = []) {
        self.content = content
        self.evidence = evidence
    }

    var cbor: CBOR {
        switch content {
        case .payment(let bytes): EnvelopeOrNot.envelope(bytes).cbor(evidence: evidence)
        case .cashu(let token): EnvelopeOrNot.cashu(.text(token)).cbor(evidence: evidence)
        case .cashuTermsAsked: EnvelopeOrNot.cashuTerms(.null).cbor(evidence: evidence)
        case .decline(let reason): EnvelopeOrNot.not(.text(reason)).cbor(evidence: evidence)
        }
    }

    init(_ cbor: CBOR) throws(SessionError) {
        let (choice, evidence) = try EnvelopeOrNot.decode(
            cbor, message: "offer", envelope: "payment", other: "decline", cashu: "Cashu token",
            terms: "question for Cashu terms")
        switch choice {
        case .envelope(let payment): content = .payment(payment)
        case .cashu(let token):
            content = .cashu(
                try token.text("Cashu token", max: SessionMessages.maxCashuTokenBytes))
        case .cashuTerms(let question):
            guard question == .null else {
                throw SessionError.malformed("the question for Cashu terms is not null")
            }
            content = .cashuTermsAsked
        case .not(let reason): content = .decline(try reason.text("decline", max: 256))
        }
        self.evidence = evidence
    }
}

/// The payee's answer to an offer: its signed receipt, or why it refused.
public struct Answer: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// A `receipt` envelope.
        case receipt([UInt8])
        /// A stable code (NodeError's) and a reason a person can read.
        case refused(code: String, reason: String)
        /// The Cashu token offered was taken (offline: the payee swaps it at its mint later).
        case cashuTaken(CashuTaken)
        /// The Cashu tokens the payee takes, asked for by `Offer.Content.cashuTermsAsked`.
        case cashuTerms(CashuTerms)
    }

    public var content: Content
    public var evidence: [[UInt8]]

    public init(_ content: Content, evidence: [[UInt8]] = []) {
        self.content = content
        self.evidence = evidence
    }

    var cbor: CBOR {
        switch content {
        case .receipt(let bytes): return EnvelopeOrNot.envelope(bytes).cbor(evidence: evidence)
        case .refused(let code, let reason):
            let refusal = CBOR.map([
                CBOR.Entry(.unsigned(1), .text(code)), CBOR.Entry(.unsigned(2), .text(reason)),
            ])
            return EnvelopeOrNot.not(refusal).cbor(evidence: evidence)
        case .cashuTaken(let taken): return EnvelopeOrNot.cashu(taken.cbor).cbor(evidence: evidence)
        case .cashuTerms(let terms):
            return EnvelopeOrNot.cashuTerms(terms.cbor).cbor(evidence: evidence)
        }
    }

    init(_ cbor: CBOR) throws(SessionError) {
        let (choice, evidence) = try EnvelopeOrNot.decode(
            cbor, message: "answer", envelope: "receipt", other: "refusal",
            cashu: "Cashu token taken", terms: "Cashu terms")
        switch choice {
        case .envelope(let receipt): content = .receipt(receipt)
        case .cashu(let taken): content = .cashuTaken(try CashuTaken(taken))
        case .cashuTerms(let terms): content = .cashuTerms(try CashuTerms(terms))
        case .not(let refusal):
            content = .refused(
                code: try field(refusal, 1, "refusal code").text("refusal code", max: 64),
                reason: try field(refusal, 2, "refusal reason").text("refusal reason", max: 1024))
        }
        self.evidence = evidence
    }
}

/// The layout offers and answers share: an envelope under key 1, or instead something else
/// under key 3 (a decline, a refusal), key 4 (Cashu: a token, the token taken) or key 5 (Cashu
/// terms: asked for, given); the evidence under key 2; no other key.
private enum EnvelopeOrNot {
    case envelope([UInt8])
    case not(CBOR)
    case cashu(CBOR)
    case cashuTerms(CBOR)

    func cbor(evidence: [[UInt8]]) -> CBOR {
        switch self {
        case .envelope(let bytes):
            .map([CBOR.Entry(.unsigned(1), .bytes(bytes)), evidenceEntry(evidence)])
        case .not(let other): .map([evidenceEntry(evidence), CBOR.Entry(.unsigned(3), other)])
        case .cashu(let value): .map([evidenceEntry(evidence), CBOR.Entry(.unsigned(4), value)])
        case .cashuTerms(let value):
            .map([evidenceEntry(evidence), CBOR.Entry(.unsigned(5), value)])
        }
    }

    static func decode(
        _ cbor: CBOR, message: String, envelope: String, other: String, cashu: String,
        terms: String
    ) throws(SessionError) -> (EnvelopeOrNot, evidence: [[UInt8]]) {
        let present = [1, 3, 4, 5].filter { cbor[.unsigned(UInt64($0))] != nil }
        guard present.count == 1, let value = cbor[.unsigned(UInt64(present[0]))] else {
            // Both messages ("offer", "answer") take "an".
            throw SessionError.malformed(
                "an \(message) holds one of a \(envelope), a \(other), a \(cashu) or a \(terms)")
        }
        let field: EnvelopeOrNot
        switch present[0] {
        case 1: field = .envelope(try value.bytes(envelope))
        case 3: field = .not(value)
        case 4: field = .cashu(value)
        default: field = .cashuTerms(value)
        }
        let evidence = try evidenceList(cbor)
        try onlyKeys(cbor, [1, 2, 3, 4, 5], in: message)
        return (field, evidence)
    }
}

// MARK: - Field helpers

private func evidenceEntry(_ evidence: [[UInt8]]) -> CBOR.Entry {
    CBOR.Entry(.unsigned(2), .array(evidence.map(CBOR.bytes)))
}

private func evidenceList(_ cbor: CBOR) throws(SessionError) -> [[UInt8]] {
    guard let items = cbor[.unsigned(2)]?.arrayValue else {
        throw SessionError.malformed("the evidence list (key 2) is missing")
    }
    guard items.count <= SessionMessages.maxEvidenceItems else {
        throw SessionError.malformed(
            "\(items.count) evidence items, at most \(SessionMessages.maxEvidenceItems)")
    }
    var list: [[UInt8]] = []
    for item in items {
        let bytes = try item.bytes("evidence")
        guard bytes.count <= SessionMessages.maxEvidenceBytes else {
            throw SessionError.malformed("an evidence item of \(bytes.count) bytes")
        }
        list.append(bytes)
    }
    return list
}

func field(_ cbor: CBOR, _ key: UInt64, _ name: String) throws(SessionError) -> CBOR {
    guard let value = cbor[.unsigned(key)] else {
        throw SessionError.malformed("\(name) (key \(key)) is missing")
    }
    return value
}

func onlyKeys(_ cbor: CBOR, _ keys: Set<UInt64>, in what: String) throws(SessionError) {
    guard let entries = cbor.mapEntries else {
        throw SessionError.malformed("\(what) is not a map")
    }
    for entry in entries {
        guard let key = entry.key.unsignedValue, keys.contains(key) else {
            throw SessionError.malformed("\(what) has an unknown key")
        }
    }
}

extension CBOR {
    func bytes(_ name: String) throws(SessionError) -> [UInt8] {
        guard let bytes = bytesValue else {
            throw SessionError.malformed("\(name) is not a byte string")
        }
        return bytes
    }

    func text(_ name: String, max: Int) throws(SessionError) -> String {
        guard let text = textValue, text.utf8.count <= max else {
            throw SessionError.malformed("\(name) is not text of at most \(max) bytes")
        }
        return text
    }
}

// MARK: - Plaintext, as a session carries it

extension Hello {
    /// The bytes a session encrypts for it.
    public var encoded: [UInt8] { cbor.encoded() }

    /// A hello read from a session's plaintext (strict: deterministic CBOR, known keys only).
    public static func decode(_ bytes: [UInt8]) throws(SessionError) -> Hello {
        try decodeMessage(bytes, Hello.init)
    }
}

extension Offer {
    /// The bytes a session encrypts for it.
    public var encoded: [UInt8] { cbor.encoded() }

    /// An offer read from a session's plaintext.
    public static func decode(_ bytes: [UInt8]) throws(SessionError) -> Offer {
        try decodeMessage(bytes, Offer.init)
    }
}

extension Answer {
    /// The bytes a session encrypts for it.
    public var encoded: [UInt8] { cbor.encoded() }

    /// An answer read from a session's plaintext.
    public static func decode(_ bytes: [UInt8]) throws(SessionError) -> Answer {
        try decodeMessage(bytes, Answer.init)
    }
}
