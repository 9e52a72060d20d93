/// Rewrites the 6-character bech32 checksum (BIP-173, constant 1) at the end of an invoice,
/// so that mutations reach the BOLT11 field parser behind it.
enum Bech32Repair {
    private static let charset = Array("qpzry9x8gf2tvdw0s3jn54khce6mua7l".utf8)

    /// `text` (optionally after `lightning:`) with its checksum recomputed; nil when it is not
    /// bech32 in shape: no separator, fewer than 6 data characters, or a character outside
    /// the alphabet.
    static func repairing(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        let prefix = Array("lightning:".utf8)
        let start =
            bytes.count >= prefix.count
                && zip(bytes, prefix).allSatisfy({ lower($0) == $1 }) ? prefix.count : 0
        guard let separator = bytes.lastIndex(of: UInt8(ascii: "1")), separator >= start,
            bytes.count - separator - 1 >= 6
        else { return nil }
        let hrp = bytes[start..<separator].map(lower)
        var values: [UInt8] = []
        for character in bytes[(separator + 1)..<(bytes.count - 6)] {
            guard let value = charset.firstIndex(of: lower(character)) else { return nil }
            values.append(UInt8(value))
        }
        let expanded = hrp.map { $0 >> 5 } + [0] + hrp.map { $0 & 31 }
        let check = polymod(expanded + values + [0, 0, 0, 0, 0, 0]) ^ 1
        let upper = bytes[start...].contains { (0x41...0x5A).contains($0) }
        for index in 0..<6 {
            let character = charset[Int((check >> (5 * (5 - index))) & 31)]
            bytes[bytes.count - 6 + index] =
                upper && character >= 0x61 ? character - 0x20 : character
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
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
}
