/// Bech32 (BIP-0173) and bech32m (BIP-0350) with checksum verification: all-lowercase or
/// all-uppercase only. BOLT11 uses bech32 without the 90-character limit; segwit addresses use
/// bech32 for version 0 and bech32m above; Cashu's `creqb` requests use bech32m.
enum Bech32 {
    /// Which checksum constant a string carries (BIP-0350 "Specification").
    enum Variant: Hashable, Sendable {
        case bech32
        case bech32m

        var constant: UInt32 {
            switch self {
            case .bech32: 1
            case .bech32m: 0x2bc8_30a3
            }
        }

        var name: String {
            switch self {
            case .bech32: "bech32"
            case .bech32m: "bech32m"
            }
        }
    }

    static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    private static let reverse: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (index, character) in charset.enumerated() { table[Int(character)] = Int8(index) }
        return table
    }()

    /// The human-readable part (lowercased) and the data as 5-bit values, checksum removed;
    /// the checksum must be `variant`'s.
    static func decode(
        _ text: Substring, variant: Variant = .bech32, maxLength: Int = 7089
    ) throws(PaymentCodeError)
        -> (hrp: String, data: [UInt8])
    {
        let decoded = try decodeEither(text, maxLength: maxLength)
        guard decoded.variant == variant else {
            throw PaymentCodeError(
                .badChecksum, field: "checksum",
                "\(variant.name) checksum does not match (mistyped or damaged)")
        }
        return (decoded.hrp, decoded.data)
    }

    /// As `decode`, accepting either checksum and saying which one matched.
    static func decodeEither(
        _ text: Substring, maxLength: Int = 7089
    ) throws(PaymentCodeError)
        -> (hrp: String, data: [UInt8], variant: Variant)
    {
        guard text.utf8.count <= maxLength else {
            throw PaymentCodeError(
                .tooLarge, field: "bech32", "longer than \(maxLength) characters")
        }
        let bytes = Array(text.utf8)
        let hasLower = bytes.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
        let hasUpper = bytes.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        guard !(hasLower && hasUpper) else {
            throw PaymentCodeError(.malformedField, field: "bech32", "mixes upper and lower case")
        }
        guard let separator = bytes.lastIndex(of: UInt8(ascii: "1")) else {
            throw PaymentCodeError(.malformedField, field: "bech32", "has no '1' separator")
        }
        let hrp = bytes[..<separator].map(URIText.asciiLower)
        guard !hrp.isEmpty, hrp.allSatisfy({ (33...126).contains($0) }) else {
            throw PaymentCodeError(.malformedField, field: "hrp", "is empty or not printable ASCII")
        }
        let dataPart = bytes[(separator + 1)...]
        guard dataPart.count >= 6 else {
            throw PaymentCodeError(.malformedField, field: "bech32", "too short for a checksum")
        }
        var values: [UInt8] = []
        values.reserveCapacity(dataPart.count)
        for (offset, character) in dataPart.enumerated() {
            let lower = URIText.asciiLower(character)
            guard lower < 128, reverse[Int(lower)] >= 0 else {
                throw PaymentCodeError(
                    .malformedField, field: "bech32",
                    "character '\(String(decoding: [character], as: UTF8.self))' at \(separator + 1 + offset) is not in the bech32 alphabet"
                )
            }
            values.append(UInt8(reverse[Int(lower)]))
        }
        let check = polymod(expand(hrp) + values)
        guard let variant = [Variant.bech32, .bech32m].first(where: { $0.constant == check }) else {
            throw PaymentCodeError(
                .badChecksum, field: "checksum",
                "bech32 checksum does not match (mistyped or damaged)")
        }
        return (String(decoding: hrp, as: UTF8.self), Array(values.dropLast(6)), variant)
    }

    /// Adds the 6-character checksum (NIP-19 profiles, test inputs and vectors).
    static func encode(hrp: String, data: [UInt8], variant: Variant = .bech32) -> String {
        let hrpBytes = Array(hrp.utf8)
        let check = polymod(expand(hrpBytes) + data + [0, 0, 0, 0, 0, 0]) ^ variant.constant
        let checksum = (0..<6).map { UInt8((check >> (5 * (5 - $0))) & 31) }
        return hrp + "1"
            + String(decoding: (data + checksum).map { charset[Int($0)] }, as: UTF8.self)
    }

    private static func expand(_ hrp: [UInt8]) -> [UInt8] {
        hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
    }

    private static func polymod(_ values: [UInt8]) -> UInt32 {
        let generator: [UInt32] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]
        var check: UInt32 = 1
        for value in values {
            let top = check >> 25
            check = (check & 0x1ff_ffff) << 5 ^ UInt32(value)
            for bit in 0..<5 where (top >> bit) & 1 == 1 { check ^= generator[bit] }
        }
        return check
    }

    /// Regroups 5-bit values into bytes; leftover bits (fewer than 8) are dropped, as BOLT11
    /// pads field data with zeros to a multiple of 5 bits.
    static func bytes(from values: some Collection<UInt8>) -> [UInt8] {
        var accumulator: UInt32 = 0
        var bits = 0
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 5 / 8)
        for value in values {
            accumulator = accumulator << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    /// Regroups 5-bit values into bytes strictly (BIP-0173 "Decoding"): at most 4 bits left
    /// over, and those zero; nil otherwise.
    static func strictBytes(from values: some BidirectionalCollection<UInt8>) -> [UInt8]? {
        let leftover = values.count * 5 % 8
        guard leftover <= 4 else { return nil }
        let mask = UInt8((1 << leftover) - 1)
        guard leftover == 0 || (values.last ?? 0) & mask == 0 else { return nil }
        return bytes(from: values)
    }

    /// Bytes as 5-bit values, the last one padded with zero bits.
    static func values(from bytes: some Collection<UInt8>) -> [UInt8] {
        var accumulator: UInt32 = 0
        var bits = 0
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        for byte in bytes {
            accumulator = (accumulator << 8 | UInt32(byte)) & 0xFFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(UInt8(accumulator >> UInt32(bits) & 31))
            }
        }
        if bits > 0 { out.append(UInt8(accumulator << UInt32(5 - bits) & 31)) }
        return out
    }

    /// Big-endian integer from 5-bit values (at most 12 of them: 60 bits).
    static func integer(from values: some Collection<UInt8>) -> UInt64 {
        values.reduce(0) { $0 << 5 | UInt64($1) }
    }
}
