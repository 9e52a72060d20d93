/// A `bitcoin:` URI (BIP-0021): address, amount in BTC, label, message.
///
/// Read, never paid by Tender: the scanner shows what it asks for. The address is kept as
/// written and checked by its checksum (bech32, bech32m or base58check): a mistyped or damaged
/// address is refused as `badChecksum` on `address`, even though BIP21's own examples use an
/// address that fails it, because paying one would lose the money.
public struct BIP21: Hashable, Sendable {
    /// As written; empty when the URI carries no address (e.g. only a `lightning=` invoice).
    public let address: String
    /// The address read and checked; nil when there is none.
    public let bitcoinAddress: BitcoinAddress?
    /// `amount=` converted exactly from decimal BTC to satoshis.
    public let satoshis: UInt64?
    public let label: String?
    public let message: String?
    /// The `lightning=` parameter (a BOLT11 invoice offered as an alternative), if any.
    public let lightning: String?
    /// `req-…` parameters. BIP21 says a wallet that does not implement them MUST treat the
    /// whole URI as invalid; nothing here implements any, so a non-empty list means "refuse".
    public let requiredUnknown: [String]
    /// Every other parameter, percent-decoded, in order (BIP21 says ignore them).
    public let otherParameters: [URIParameter]

    public static let scheme = "bitcoin"
    /// 1 BTC = 10^8 satoshis.
    public static let satoshisPerBitcoin: UInt64 = 100_000_000

    /// Parses `bitcoin:ADDRESS[?params]`, scheme in any case. Duplicate parameters and
    /// amounts that are not plain decimals (`50,000.00`, `1e3`, finer than a satoshi, more
    /// than 21 million BTC) are refused.
    public static func decode(_ text: String) throws(PaymentCodeError) -> BIP21 {
        guard let rest = URIText.strip(scheme: scheme, from: text[...]) else {
            throw PaymentCodeError(.wrongScheme, field: "scheme", "does not start with 'bitcoin:'")
        }
        let question = rest.firstIndex(of: "?") ?? rest.endIndex
        let address = String(rest[..<question])
        guard address.utf8.allSatisfy({ isAlphanumeric($0) }) else {
            throw PaymentCodeError(
                .malformedField, field: "address",
                "'\(address.prefix(80))' has characters no Bitcoin address uses")
        }
        let bitcoinAddress = address.isEmpty ? nil : try BitcoinAddress.decode(address)
        let query =
            question == rest.endIndex
            ? rest[rest.endIndex...] : rest[rest.index(after: question)...]
        var satoshis: UInt64?
        var label: String?
        var message: String?
        var lightning: String?
        var required: [String] = []
        var others: [URIParameter] = []
        for parameter in try URIText.parameters(query, allowBareKeys: true) {
            switch parameter.key {
            case "amount":
                let value = try ExactDecimal.fixedPoint(
                    parameter.value[...], scale: 8, field: "amount",
                    unit: "1 satoshi = 0.00000001 BTC")
                guard value <= 21_000_000 * UInt128(satoshisPerBitcoin) else {
                    throw PaymentCodeError(
                        .malformedField, field: "amount",
                        "\(parameter.value) BTC is more than will ever exist (21 million)")
                }
                satoshis = UInt64(value)
            case "label": label = parameter.value
            case "message": message = parameter.value
            case "lightning": lightning = parameter.value
            case let key where key.hasPrefix("req-"): required.append(key)
            default: others.append(parameter)
            }
        }
        return BIP21(
            address: address, bitcoinAddress: bitcoinAddress, satoshis: satoshis, label: label,
            message: message,
            lightning: lightning, requiredUnknown: required, otherParameters: others)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        URIText.isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    public var explanation: String {
        var parts = ["Bitcoin payment request (BIP21)"]
        if let bitcoinAddress {
            parts.append(
                "to \(address) (\(bitcoinAddress.kind.name) on \(bitcoinAddress.network.rawValue), \(bitcoinAddress.checksum) checksum correct)"
            )
        } else {
            parts.append("with no address")
        }
        if let satoshis {
            parts.append(
                "for \(ExactDecimal.format(UInt128(satoshis), scale: 8)) BTC (\(ExactDecimal.grouped(UInt128(satoshis)) ) sat)"
            )
        } else {
            parts.append("with no amount (the payer chooses)")
        }
        var text = parts.joined(separator: " ") + "."
        if let label { text += " Label: \"\(label)\"." }
        if let message { text += " Message: \"\(message)\"." }
        if lightning != nil { text += " It also offers a Lightning invoice." }
        if !requiredUnknown.isEmpty {
            text +=
                " It requires parameters no wallet here understands (\(requiredUnknown.joined(separator: ", "))), so BIP21 says it must not be paid as it stands."
        }
        return text
            + " Tender cannot pay it: it is an on-chain Bitcoin payment; use a Bitcoin wallet."
    }
}
