import Codecs

/// Every Tender file, QR payload and BLE message: self-described CBOR (tag 55799) around
/// `{0: kind, 1: version, 2: chainId, 3: vault, 4: body}`, so a payload for another chain or
/// vault is refused by name before anything else is looked at.
public struct Envelope: Sendable {
    public enum Message: Sendable {
        case request(PaymentRequest)
        case payment(Payment)
        case receipt(SignedReceipt)
        case evidence(DoubleSpendEvidence)

        public var kind: String {
            switch self {
            case .request: "request"
            case .payment: "payment"
            case .receipt: "receipt"
            case .evidence: "evidence"
            }
        }
    }

    /// 2: the payer signs the payment (`Payment` terms, field 7); Docs/PROTOCOL.md §6.
    public static let version: UInt64 = 2
    /// RFC 8949 §3.4.6: the self-described CBOR tag; files begin d9 d9 f7.
    static let selfDescribedTag: UInt64 = 55799
    public static let maxBytes = 1 << 20

    public let domain: Domain
    public let message: Message

    public init(domain: Domain, message: Message) {
        self.domain = domain
        self.message = message
    }

    public func encoded() -> [UInt8] {
        let body: CBOR =
            switch message {
            case .request(let request): request.cbor
            case .payment(let payment): payment.cbor
            case .receipt(let receipt): receipt.cbor
            case .evidence(let evidence): evidence.cbor
            }
        return CBOR.tagged(
            Self.selfDescribedTag,
            .fields([
                0: .text(message.kind), 1: .unsigned(Self.version), 2: .unsigned(domain.chainID),
                3: .bytes(domain.vault.bytes), 4: body,
            ])
        ).encoded()
    }

    /// Decodes strictly (deterministic CBOR, bounded sizes). With `expecting`, a payload signed
    /// for another domain is refused with `.wrongDomain` naming both.
    public static func decode(
        _ bytes: [UInt8], expecting expected: Domain? = nil, limits: VerificationLimits = .standard
    ) throws(ProtocolError) -> Envelope {
        guard bytes.count <= maxBytes else {
            throw ProtocolError(.proofTooLarge("\(bytes.count) bytes, cap \(maxBytes)"))
        }
        // Named before decoding: an image or a text file is not "bad CBOR", it is another file.
        guard bytes.starts(with: [0xD9, 0xD9, 0xF7]) else {
            throw ProtocolError(
                .malformed(
                    "not a Tender file (Tender files start with d9 d9 f7; missing the d9d9f7 CBOR tag)"
                ))
        }
        let tree: CBOR
        do {
            var options = CBORDecodingOptions.deterministic
            options.maxInputBytes = maxBytes
            tree = try CBOR.decode(bytes, options: options)
        } catch { throw ProtocolError(.malformed("not deterministic CBOR: \(error)")) }
        guard case .tagged(selfDescribedTag, let content) = tree else {
            throw ProtocolError(.malformed("not a Tender payload (missing the d9d9f7 CBOR tag)"))
        }
        let reader = WireReader(content, path: "envelope")
        let fields = try reader.fields(required: [0, 1, 2, 3, 4])
        let kind = try reader.field(fields, 0, "kind").text(maxBytes: 32)
        let version = try reader.field(fields, 1, "version").unsigned()
        guard version == Self.version else {
            throw reader.fail(
                "protocol version \(version) is not supported (this node speaks \(Self.version))")
        }
        let domain = Domain(
            chainID: try reader.field(fields, 2, "chainId").unsigned(),
            vault: try reader.field(fields, 3, "vault").address())
        if let expected, expected != domain {
            throw ProtocolError(.wrongDomain(expected: expected, actual: domain))
        }
        let body = WireReader(fields[4]!, path: kind)
        let message: Message =
            switch kind {
            case "request": .request(try PaymentRequest(wire: body, domain: domain))
            case "payment": .payment(try Payment(wire: body, limits: limits))
            case "receipt": .receipt(try SignedReceipt(wire: body))
            case "evidence":
                .evidence(try DoubleSpendEvidence(wire: body, domain: domain, limits: limits))
            default: throw reader.fail("unknown kind '\(kind)'")
            }
        return Envelope(domain: domain, message: message)
    }
}

extension ProofBundle {
    /// Deterministic CBOR of the bundle alone (how a wallet stores a coin's proof).
    public func encoded() -> [UInt8] { cbor.encoded() }

    public static func decode(
        _ bytes: [UInt8], limits: VerificationLimits = .standard
    )
        throws(ProtocolError) -> ProofBundle
    {
        try WireReader.decodeRoot(bytes, path: "proof") { reader throws(ProtocolError) in
            try ProofBundle(wire: reader, limits: limits)
        }
    }
}

extension SignedNote {
    /// Deterministic CBOR of one signed note (how a wallet stores the notes of its proofs).
    public func encoded() -> [UInt8] { cbor.encoded() }

    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> SignedNote {
        try WireReader.decodeRoot(bytes, path: "note") { reader throws(ProtocolError) in
            try SignedNote(wire: reader)
        }
    }
}

extension SignedTransfer {
    /// Deterministic CBOR of one signed transfer (the seen-set and evidence tables store these).
    public func encoded() -> [UInt8] { cbor.encoded() }

    public static func decode(
        _ bytes: [UInt8], limits: VerificationLimits = .standard
    )
        throws(ProtocolError) -> SignedTransfer
    {
        try WireReader.decodeRoot(bytes, path: "transfer") { reader throws(ProtocolError) in
            try SignedTransfer(wire: reader, limits: limits)
        }
    }
}
