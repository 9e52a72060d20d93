import Codecs
import Tender

/// A Lightning invoice (BOLT #11), read for display: network, amount, timestamp and the tagged
/// fields with names. Tender cannot pay it.
///
/// The bech32 checksum is verified; the payee's signature is **not** (that needs
/// secp256k1 public-key recovery over SHA-256 of the invoice, and only a Lightning wallet
/// acts on the result). `explanation` says so.
public struct BOLT11: Hashable, Sendable {
    public enum Network: String, Hashable, Sendable, CaseIterable {
        case bitcoin = "bc"
        case testnet = "tb"
        case signet = "tbs"
        case regtest = "bcrt"

        public var name: String {
            switch self {
            case .bitcoin: "Bitcoin mainnet"
            case .testnet: "Bitcoin testnet"
            case .signet: "Bitcoin signet"
            case .regtest: "Bitcoin regtest"
            }
        }
    }

    public let network: Network
    /// The amount in millisatoshis, exactly; nil when the invoice leaves it to the payer.
    public let millisatoshis: UInt128?
    /// Seconds since 1970 (35 bits).
    public let timestamp: UInt64
    /// `p`: the 32-byte payment hash (the first `p` field of the right length).
    public let paymentHash: [UInt8]
    /// `s`: the 32-byte payment secret.
    public let paymentSecret: [UInt8]?
    /// `d`: the short description.
    public let invoiceDescription: String?
    /// `h`: SHA-256 of a longer description delivered some other way.
    public let descriptionHash: [UInt8]?
    /// `x`: seconds after `timestamp` until expiry, when given (BOLT11's default is 3600).
    public let expiry: UInt64?
    /// `c`: min_final_cltv_expiry_delta, when given (default 18).
    public let minFinalCLTVExpiryDelta: UInt64?
    /// `n`: the payee node's 33-byte public key, when given.
    public let payeeNodeID: [UInt8]?
    /// `9`: the numbers of the feature bits set.
    public let features: [Int]
    /// Letters of the other tagged fields present (`f` fallback, `r` route hint, `m`
    /// metadata, unknown ones…) in order, and of known fields skipped for a wrong length.
    public let otherFields: [String]
    /// 64-byte compact signature and the recovery id: present, not verified.
    public let signature: [UInt8]

    public static let defaultExpiry: UInt64 = 3600
    public var effectiveExpiry: UInt64 { expiry ?? Self.defaultExpiry }
    /// Seconds since 1970 after which the invoice must not be paid (BOLT 11 `x`). The
    /// timestamp has 35 bits and the expiry at most 60, so the sum cannot overflow.
    public var expiresAt: UInt64 { timestamp + effectiveExpiry }

    public func isExpired(now: UInt64) -> Bool { now >= expiresAt }

    /// Reads an invoice, with or without `lightning:` (any case), all-lower or all-upper case.
    public static func decode(_ text: String) throws(PaymentCodeError) -> BOLT11 {
        let body = URIText.strip(scheme: "lightning", from: text[...]) ?? text[...]
        let (hrp, values) = try Bech32.decode(body)
        guard hrp.hasPrefix("ln") else {
            throw PaymentCodeError(.wrongScheme, field: "hrp", "'\(hrp)' does not start with 'ln'")
        }
        let afterLN = hrp.utf8.dropFirst(2)
        let currencyEnd = afterLN.firstIndex(where: URIText.isDigit) ?? afterLN.endIndex
        let currency = String(decoding: afterLN[..<currencyEnd], as: UTF8.self)
        guard let network = Network(rawValue: currency) else {
            throw PaymentCodeError(
                .unsupported, field: "hrp",
                "currency prefix '\(currency)' is not one this reader knows (bc, tb, tbs, bcrt)")
        }
        let amount = try parseAmount(Array(afterLN[currencyEnd...]))

        guard values.count >= 7 + 104 else {
            throw PaymentCodeError(
                .malformedField, field: "data",
                "too short: \(values.count) groups, a timestamp and signature alone take 111")
        }
        let timestamp = Bech32.integer(from: values[0..<7])
        let signatureStart = values.count - 104
        var paymentHash: [UInt8]?
        var secret: [UInt8]?
        var description: String?
        var descriptionHash: [UInt8]?
        var expiry: UInt64?
        var cltv: UInt64?
        var node: [UInt8]?
        var features: [Int] = []
        var others: [String] = []
        var index = 7
        while index < signatureStart {
            guard index + 3 <= signatureStart else {
                throw PaymentCodeError(
                    .malformedField, field: "tagged fields",
                    "a field header runs into the signature")
            }
            let type = values[index]
            let length = Int(values[index + 1]) << 5 | Int(values[index + 2])
            let start = index + 3
            guard start + length <= signatureStart else {
                throw PaymentCodeError(
                    .malformedField, field: "tagged fields",
                    "field '\(letter(type))' declares \(length) groups, past the signature")
            }
            let data = values[start..<(start + length)]
            index = start + length
            switch (letter(type), length) {
            case ("p", 52) where paymentHash == nil: paymentHash = Bech32.bytes(from: data)
            case ("s", 52) where secret == nil: secret = Bech32.bytes(from: data)
            case ("h", 52) where descriptionHash == nil: descriptionHash = Bech32.bytes(from: data)
            case ("n", 53) where node == nil: node = Bech32.bytes(from: data)
            case ("d", _) where description == nil:
                guard let text = String(validating: Bech32.bytes(from: data), as: UTF8.self) else {
                    throw PaymentCodeError(.malformedField, field: "d", "description is not UTF-8")
                }
                description = text
            case ("x", 1...12) where expiry == nil: expiry = Bech32.integer(from: data)
            case ("c", 1...12) where cltv == nil: cltv = Bech32.integer(from: data)
            case ("9", _) where features.isEmpty:
                for (position, value) in data.enumerated() {
                    for bit in 0..<5 where (value >> bit) & 1 == 1 {
                        features.append(5 * (length - 1 - position) + bit)
                    }
                }
                features.sort()
            case (let name, _): others.append(name)
            }
        }
        guard let paymentHash else {
            throw PaymentCodeError(
                .missingField, field: "p", "no payment hash (a 52-group 'p' field is required)")
        }
        if let unknown = features.first(where: {
            $0 % 2 == 0 && !knownFeatures.contains($0 / 2 * 2)
        }) {
            throw PaymentCodeError(
                .unsupported, field: "9",
                "requires feature bit \(unknown), which this reader does not know (BOLT 11: must not pay)"
            )
        }
        if secret == nil && (features.contains(14) || features.contains(15)) {
            throw PaymentCodeError(
                .missingField, field: "s",
                "the payment_secret feature is set but there is no payment secret")
        }
        return BOLT11(
            network: network, millisatoshis: amount, timestamp: timestamp,
            paymentHash: paymentHash, paymentSecret: secret, invoiceDescription: description,
            descriptionHash: descriptionHash, expiry: expiry, minFinalCLTVExpiryDelta: cltv,
            payeeNodeID: node, features: features, otherFields: others,
            signature: Bech32.bytes(from: values[signatureStart...]))
    }

    /// Even bits of the invoice features BOLT 9 defines (context `9`, or ASSUMED): 8
    /// var_onion_optin, 14 payment_secret, 16 basic_mpp, 24 option_route_blinding, 36
    /// option_attribution_data, 48 option_payment_metadata. An unknown odd bit is fine.
    static let knownFeatures: Set<Int> = [8, 14, 16, 24, 36, 48]

    private static func letter(_ type: UInt8) -> String {
        String(decoding: [Bech32.charset[Int(type)]], as: UTF8.self)
    }

    /// The amount part of the human-readable part: digits and an optional multiplier, in BTC.
    /// 1 BTC = 10^11 msat; `p` (10^-12 BTC) must land on a whole millisatoshi.
    private static func parseAmount(_ bytes: [UInt8]) throws(PaymentCodeError) -> UInt128? {
        if bytes.isEmpty { return nil }
        var digits = bytes[...]
        var scale: (multiply: UInt128, divide: UInt128) = (100_000_000_000, 1)
        if let last = bytes.last, !URIText.isDigit(last) {
            switch last {
            case UInt8(ascii: "m"): scale = (100_000_000, 1)
            case UInt8(ascii: "u"): scale = (100_000, 1)
            case UInt8(ascii: "n"): scale = (100, 1)
            case UInt8(ascii: "p"): scale = (1, 10)
            default:
                throw PaymentCodeError(
                    .malformedField, field: "amount",
                    "multiplier '\(String(decoding: [last], as: UTF8.self))' is not m, u, n or p")
            }
            digits = digits.dropLast()
        }
        let text = String(decoding: digits, as: UTF8.self)
        let value = try ExactDecimal.integer(text[...], field: "amount")
        guard value > 0 else {
            throw PaymentCodeError(.malformedField, field: "amount", "must be positive")
        }
        guard value % scale.divide == 0 else {
            throw PaymentCodeError(
                .malformedField, field: "amount",
                "\(text)p is not a whole number of millisatoshis (a 'p' amount must end in 0)")
        }
        let (msat, overflow) = (value / scale.divide).multipliedReportingOverflow(
            by: scale.multiply)
        guard !overflow else {
            throw PaymentCodeError(.malformedField, field: "amount", "exceeds 2^128 msat")
        }
        return msat
    }

    /// The explanation without a clock: when it expires, not whether it has.
    public var explanation: String { explanation(now: nil) }

    /// `now` (seconds since 1970, from the caller's clock) says whether the invoice has expired.
    public func explanation(now: UInt64?) -> String {
        var text = "Lightning invoice (BOLT11) on \(network.name)"
        if let msat = millisatoshis {
            text += " for \(ExactDecimal.format(msat, scale: 3)) sat"
            text +=
                " (\(ExactDecimal.format(msat, scale: 11)) BTC, \(ExactDecimal.grouped(msat)) msat)"
        } else {
            text += " with no amount (the payer chooses)"
        }
        text += "."
        if let invoiceDescription { text += " Description: \"\(invoiceDescription)\"." }
        if descriptionHash != nil && invoiceDescription == nil {
            text += " The description is given only as a hash."
        }
        text += " Created \(UTCTime.format(timestamp)); " + expiryText(now: now)
        text += expiry == nil ? ", no expiry given: BOLT 11's default of 1 hour." : "."
        text += " Payment hash \(Hex.encode(paymentHash, prefix: false))."
        text += " Its signature is not verified here."
        if let now, isExpired(now: now) {
            text += " It has expired: it must not be paid."
        }
        return text + " Tender cannot pay it: it is a Lightning payment; use a Lightning wallet."
    }
}

extension BOLT11 {
    /// `expired at … (12 min ago)`, `expires at … (in 3 h)`, or without a clock
    /// `expires at … (600 s after creation)`.
    func expiryText(now: UInt64?) -> String {
        guard let now else {
            return "expires at \(UTCTime.format(expiresAt)) (\(effectiveExpiry) s after creation)"
        }
        return ScannedCode.expiry(expiresAt, now: now)
    }
}
