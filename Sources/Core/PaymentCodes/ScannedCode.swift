import Codecs
import Tender

/// What a scanned code is, recognised from its bytes alone (no network, no clock: whether a
/// code has expired is said only when the caller passes `now`).
///
/// Only `tenderRequest` and `tenderPayload` are payable by Tender; the rest are recognised so
/// the operator is told plainly what was scanned and why it cannot be paid here.
public enum ScannedCode: Hashable, Sendable {
    /// A `tender:` URI, fully checked.
    case tenderRequest(PaymentRequest)
    /// A static "pay me" code: the payer chooses the amount.
    case tenderPayee(PayeeCode)
    /// A `bitcoin:` URI (BIP21).
    case bip21(BIP21)
    /// An `ethereum:` URL (EIP-681).
    case eip681(EIP681)
    /// A Lightning invoice (`lnbc…`, `lntb…`, `lnbcrt…`, optionally `lightning:`).
    case bolt11(BOLT11)
    /// A Cashu token (`cashuA…`, `cashuB…`, optionally `cashu:`).
    case cashu(CashuToken)
    /// A Cashu payment request (`creqA…` NUT-18, `creqb1…` NUT-26, optionally `cashu:`).
    case cashuRequest(CashuPaymentRequest)
    /// Raw bytes of a Tender payload: self-described CBOR, starting d9 d9 f7 (binary-mode QR).
    case tenderPayload([UInt8])
    /// Anything else, as text (bytes that are not UTF-8 are shown with replacement
    /// characters). Also a code that looks like a known format but does not parse:
    /// `explanation` then says what is wrong with it.
    case unknown(String)

    /// The first bytes of every Tender payload: CBOR tag 55799 (RFC 8949 §3.4.6).
    public static let payloadPrefix: [UInt8] = [0xD9, 0xD9, 0xF7]

    /// Recognises a code from the bytes a scanner returned. Leading and trailing ASCII
    /// whitespace around text is ignored (some scanners append a newline).
    public static func recognize(_ bytes: [UInt8]) -> ScannedCode {
        if bytes.starts(with: payloadPrefix) { return .tenderPayload(bytes) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .unknown(String(decoding: bytes, as: UTF8.self))
        }
        return recognize(text)
    }

    /// Recognises a code already held as text.
    public static func recognize(_ text: String) -> ScannedCode {
        let trimmed = trimmingASCIIWhitespace(text)
        switch classify(trimmed) {
        case .success(let code)?: return code
        case .failure?, nil: return .unknown(text)
        }
    }

    /// A Cashu token (read, or refused as one): Tender's Cashu wallet takes these, not the
    /// Tender payment path.
    public var isCashuToken: Bool {
        if case .cashu = self { return true }
        if case .unknown(let text) = self {
            let head = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
                .lowercased()
            return head.hasPrefix("cashua") || head.hasPrefix("cashub")
                || head.hasPrefix("cashu:cashu")
        }
        return false
    }

    /// Whether Tender can pay (or accept) what was scanned.
    public var isPayableByTender: Bool {
        switch self {
        case .tenderRequest, .tenderPayee, .tenderPayload: true
        default: false
        }
    }

    /// For `.unknown` text that looks like a known format (by its prefix): why it was
    /// refused, naming the field. nil for every other case.
    public var problem: PaymentCodeError? {
        guard case .unknown(let text) = self,
            case .failure(let error)? = Self.classify(Self.trimmingASCIIWhitespace(text))
        else { return nil }
        return error
    }

    /// The format a text appears to be in, by its prefix, and the result of reading it
    /// strictly in that format; nil when no known prefix matches.
    static func classify(_ text: String) -> Result<ScannedCode, PaymentCodeError>? {
        let head = text[...]
        func run(
            _ body: () throws(PaymentCodeError) -> ScannedCode
        ) -> Result<ScannedCode, PaymentCodeError> {
            do { return .success(try body()) } catch { return .failure(error) }
        }
        if URIText.strip(scheme: TenderURI.scheme, from: head) != nil {
            return run { () throws(PaymentCodeError) in
                switch try TenderURI.decodeAny(text) {
                case .request(let request): .tenderRequest(request)
                case .payee(let payee): .tenderPayee(payee)
                }
            }
        }
        if URIText.strip(scheme: BIP21.scheme, from: head) != nil {
            return run { () throws(PaymentCodeError) in .bip21(try BIP21.decode(text)) }
        }
        if URIText.strip(scheme: EIP681.scheme, from: head) != nil {
            return run { () throws(PaymentCodeError) in .eip681(try EIP681.decode(text)) }
        }
        // Lightning: an explicit `lightning:` prefix, or an invoice prefix (lnbc, lntb, and
        // so lntbs and lnbcrt). Other `ln…` strings (LNURL, words) stay unknown.
        let lightning = URIText.strip(scheme: "lightning", from: head)
        if lightning != nil
            || ["lnbc", "lntb"].contains(where: { prefix in
                head.utf8.starts(with: prefix.utf8, by: { URIText.asciiLower($0) == $1 })
            })
        {
            return run { () throws(PaymentCodeError) in .bolt11(try BOLT11.decode(text)) }
        }
        if CashuPaymentRequest.looksLikeRequest(head) {
            return run { () throws(PaymentCodeError) in
                .cashuRequest(try CashuPaymentRequest.decode(text))
            }
        }
        let cashu = URIText.strip(scheme: "cashu", from: head) ?? head
        if cashu.hasPrefix("cashu") {
            return run { () throws(PaymentCodeError) in .cashu(try CashuToken.decode(text)) }
        }
        return nil
    }

    private static func trimmingASCIIWhitespace(_ text: String) -> String {
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isSpace($0) }),
            let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// What the code is, the amount with its unit where known, and whether Tender can pay it.
    /// Without a clock: says when a code expires, not whether it has.
    public var explanation: String { explanation(units: { _, _ in .baseUnits }) }

    public func explanation(units: (Domain, Address) -> Denomination) -> String {
        explanation(now: nil, units: units)
    }

    /// `explanation`, a Tender request's amount as `units` reads the asset on its chain
    /// (`0.0125 ETH (12500000000000000 base units)`): the code itself carries base units only.
    /// `now` (seconds since 1970, the caller's clock) says whether an invoice or request has
    /// expired; nil says only when it expires.
    public func explanation(now: UInt64?, units: (Domain, Address) -> Denomination) -> String {
        func amount(_ amount: Amount, _ domain: Domain, _ asset: Address) -> String {
            let denomination = units(domain, asset)
            return denomination.isKnown
                ? "\(denomination.format(amount)) (\(amount) base units)" : "\(amount) base units"
        }
        switch self {
        case .tenderPayee(let code):
            let asset =
                code.asset == Address.zero ? "the native coin" : "asset \(code.asset.checksummed)"
            let stall = code.name.isEmpty ? "" : "\(code.name): "
            return
                "\(stall)Tender payee \(code.payee.checksummed), paid in \(asset) on chain \(code.domain.chainID) (vault \(code.domain.vault.checksummed)); the payer chooses the amount. Tender can pay it."
        case .tenderRequest(let request):
            var text =
                "Tender payment request: pay \(amount(request.amount, request.domain, request.asset)) of "
            text += request.asset == Address.zero ? "the native coin" : "token \(request.asset)"
            text += " to \(request.payee) on chain \(request.domain.chainID)"
            text += " (vault \(request.domain.vault)), request \(request.id.hex),"
            text += " " + Self.expiry(request.expiry, now: now) + "."
            if !request.memo.isEmpty { text += " Memo: \"\(request.memo)\"." }
            if let key = request.sessionKey {
                text += " Carries the payee's session key \(Hex.encode(key, prefix: false))."
            } else {
                text += " No session key: the payer learns it during the BLE handshake."
            }
            if let now, now >= request.expiry {
                return text + " It has expired: it can no longer be paid."
            }
            return text + " Tender can pay it."
        case .bip21(let code): return code.explanation
        case .eip681(let code): return code.explanation
        case .bolt11(let code): return code.explanation(now: now)
        case .cashu(let code): return code.explanation
        case .cashuRequest(let code): return code.explanation
        case .tenderPayload(let bytes):
            let size = "\(bytes.count) bytes"
            do {
                let envelope = try Envelope.decode(bytes)
                var text =
                    "Tender \(envelope.message.kind) (binary payload, \(size)) for \(envelope.domain)."
                if case .request(let request) = envelope.message {
                    text +=
                        " It asks for \(amount(request.amount, envelope.domain, request.asset)) to \(request.payee)."
                }
                return text + " Tender can read it."
            } catch {
                return "Tender payload (\(size), starts d9 d9 f7) that does not decode: \(error)."
                    + " Tender cannot use it as it stands."
            }
        case .unknown(let text):
            if text.contains("\u{FFFD}") {
                return
                    "Binary data that is neither UTF-8 text nor a Tender payload. Tender cannot pay it."
            }
            let trimmed = Self.trimmingASCIIWhitespace(text)
            if case .failure(let error)? = Self.classify(trimmed) {
                return
                    "Looks like \(Self.formatName(of: trimmed)) but is not valid: \(error). Tender cannot pay it."
            }
            return
                "Not a payment code Tender recognises (\(text.utf8.count) bytes of text). Tender cannot pay it."
        }
    }

    /// `expires at …`, or with a clock `expired at … (5 min ago)` / `expires at … (in 2 h)`.
    static func expiry(_ at: UInt64, now: UInt64?) -> String {
        let time = UTCTime.format(at)
        guard let now else { return "expires at \(time)" }
        return now >= at
            ? "expired at \(time) (\(RelativeTime.span(now - at)) ago)"
            : "expires at \(time) (in \(RelativeTime.span(at - now)))"
    }

    private static func formatName(of text: String) -> String {
        let head = text[...]
        if URIText.strip(scheme: TenderURI.scheme, from: head) != nil {
            return "a tender: payment request"
        }
        if URIText.strip(scheme: BIP21.scheme, from: head) != nil {
            return "a bitcoin: URI (BIP21)"
        }
        if URIText.strip(scheme: EIP681.scheme, from: head) != nil {
            return "an ethereum: URL (EIP-681)"
        }
        if CashuPaymentRequest.looksLikeRequest(head) { return "a Cashu payment request" }
        let cashu = URIText.strip(scheme: "cashu", from: head) ?? head
        if cashu.hasPrefix("cashu") { return "a Cashu token" }
        return "a Lightning invoice (BOLT11)"
    }
}
