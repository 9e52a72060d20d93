import Crypto

/// A Bitcoin address checked by its own checksum, so a one-character typo is caught before
/// anyone pays it: segwit addresses by bech32 (BIP-0173, version 0) or bech32m (BIP-0350,
/// versions 1 to 16) with the witness program length rules, legacy ones by base58check (the
/// first 4 bytes of double SHA-256).
public struct BitcoinAddress: Hashable, Sendable {
    public enum Network: String, Hashable, Sendable {
        case mainnet
        /// Testnet and signet share their address prefixes (`tb`, `m`/`n`/`2`).
        case testnet
        /// `bcrt` segwit addresses; regtest's legacy addresses are testnet's.
        case regtest
    }

    public enum Kind: Hashable, Sendable {
        case p2pkh
        case p2sh
        /// A segwit output: version 0 to 16 and its program.
        case segwit(version: Int, program: [UInt8])

        public var name: String {
            switch self {
            case .p2pkh: "P2PKH"
            case .p2sh: "P2SH"
            case .segwit(0, let program): program.count == 20 ? "P2WPKH" : "P2WSH"
            case .segwit(1, let program) where program.count == 32: "P2TR"
            case .segwit(let version, _): "segwit v\(version)"
            }
        }
    }

    public let network: Network
    public let kind: Kind
    /// What the checksum was: `bech32`, `bech32m` or `base58check`.
    public let checksum: String

    /// Reads `text` as an address; a checksum that does not match is `badChecksum` on `field`.
    public static func decode(
        _ text: String, field: String = "address"
    ) throws(PaymentCodeError) -> BitcoinAddress {
        let lower = String(decoding: text.utf8.prefix(5).map(URIText.asciiLower), as: UTF8.self)
        if ["bc1", "tb1", "bcrt1"].contains(where: { lower.hasPrefix($0) }) {
            return try segwit(text, field: field)
        }
        return try legacy(text, field: field)
    }

    private static func damaged(
        _ text: String, _ field: String, _ what: String
    )
        -> PaymentCodeError
    {
        PaymentCodeError(
            .badChecksum, field: field,
            "'\(text.prefix(90))' fails its \(what) checksum: the address is damaged or mistyped and must not be paid"
        )
    }

    private static func segwit(
        _ text: String, field: String
    ) throws(PaymentCodeError)
        -> BitcoinAddress
    {
        let decoded: (hrp: String, data: [UInt8], variant: Bech32.Variant)
        do { decoded = try Bech32.decodeEither(text[...], maxLength: 90) } catch {
            if error.kind == .badChecksum { throw damaged(text, field, "bech32") }
            throw PaymentCodeError(error.kind, field: field, error.message)
        }
        guard ["bc", "tb", "bcrt"].contains(decoded.hrp) else {
            throw damaged(text, field, "bech32")
        }
        guard let version = decoded.data.first, version <= 16 else {
            throw PaymentCodeError(
                .malformedField, field: field, "segwit address has no witness version 0 to 16")
        }
        let expected: Bech32.Variant = version == 0 ? .bech32 : .bech32m
        guard decoded.variant == expected else {
            // BIP-0350: a v0 address with a bech32m checksum (or v1+ with bech32) is invalid;
            // it is how one error in the version character shows.
            throw damaged(text, field, expected.name)
        }
        guard let program = Bech32.strictBytes(from: decoded.data.dropFirst()),
            (2...40).contains(program.count), version != 0 || [20, 32].contains(program.count)
        else {
            throw PaymentCodeError(
                .malformedField, field: field,
                "segwit v\(version) witness program has an invalid length or padding")
        }
        let network: Network =
            switch decoded.hrp {
            case "bc": .mainnet
            case "tb": .testnet
            default: .regtest
            }
        return BitcoinAddress(
            network: network, kind: .segwit(version: Int(version), program: program),
            checksum: expected.name)
    }

    private static func legacy(
        _ text: String, field: String
    ) throws(PaymentCodeError)
        -> BitcoinAddress
    {
        guard (26...35).contains(text.utf8.count), let bytes = Base58.decode(text) else {
            throw PaymentCodeError(
                .malformedField, field: field,
                "'\(text.prefix(90))' is neither a segwit (bc1…, tb1…, bcrt1…) nor a base58 Bitcoin address"
            )
        }
        guard bytes.count == 25 else {
            throw PaymentCodeError(
                .malformedField, field: field,
                "'\(text.prefix(90))' decodes to \(bytes.count) bytes, not the 25 of a base58 address"
            )
        }
        let payload = Array(bytes.prefix(21))
        guard
            Array(SHA256.hash(data: Array(SHA256.hash(data: payload))).prefix(4))
                == Array(bytes.suffix(4))
        else {
            throw damaged(text, field, "base58check")
        }
        let (network, kind): (Network, Kind)
        switch payload[0] {
        case 0x00: (network, kind) = (.mainnet, .p2pkh)
        case 0x05: (network, kind) = (.mainnet, .p2sh)
        case 0x6F: (network, kind) = (.testnet, .p2pkh)
        case 0xC4: (network, kind) = (.testnet, .p2sh)
        default:
            throw PaymentCodeError(
                .unsupported, field: field,
                "version byte 0x\(String(payload[0], radix: 16)) is not a Bitcoin address's")
        }
        return BitcoinAddress(network: network, kind: kind, checksum: "base58check")
    }
}

/// Base58 as Bitcoin writes it (no 0, O, I, l); leading '1's are leading zero bytes.
enum Base58 {
    private static let alphabet = Array(
        "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    /// nil when a character is not in the alphabet.
    static func decode(_ text: String) -> [UInt8]? {
        var number: [UInt8] = []  // big-endian base-256 digits
        for character in text.utf8 {
            guard var carry = alphabet.firstIndex(of: character) else { return nil }
            for index in number.indices.reversed() {
                carry += Int(number[index]) * 58
                number[index] = UInt8(carry & 0xFF)
                carry >>= 8
            }
            while carry > 0 {
                number.insert(UInt8(carry & 0xFF), at: 0)
                carry >>= 8
            }
        }
        let zeros = text.utf8.prefix { $0 == UInt8(ascii: "1") }.count
        return [UInt8](repeating: 0, count: zeros) + number
    }
}
