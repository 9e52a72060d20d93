@testable import Keystore

/// Base58Check decoding, only to read the BIP32 spec's `xprv`/`xpub` strings in tests: the
/// module itself does not serialise extended keys.
enum Base58Check {
    private static let alphabet = Array(
        "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    /// The payload without its 4-byte checksum, or nil if a character or the checksum is bad.
    static func decode(_ text: String) -> [UInt8]? {
        var number: [UInt8] = []  // big-endian base-256 accumulator
        for character in text.utf8 {
            guard let digit = alphabet.firstIndex(of: character) else { return nil }
            var carry = digit
            for index in number.indices.reversed() {
                carry += Int(number[index]) * 58
                number[index] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                number.insert(UInt8(carry & 0xff), at: 0)
                carry >>= 8
            }
        }
        let leadingZeros = text.utf8.prefix { $0 == alphabet[0] }.count
        let decoded = [UInt8](repeating: 0, count: leadingZeros) + number
        guard decoded.count >= 4 else { return nil }
        let payload = Array(decoded.dropLast(4))
        guard Array(sha256(sha256(payload)).prefix(4)) == Array(decoded.suffix(4)) else {
            return nil
        }
        return payload
    }
}

/// The fields of a BIP32 serialised extended key (78 bytes): version 4, depth 1, parent
/// fingerprint 4, child number 4, chain code 32, key 33 (0x00 ‖ k, or a compressed point).
struct ExtendedKeyFields {
    let depth: UInt8
    let childNumber: UInt32
    let chainCode: [UInt8]
    let key: [UInt8]

    init?(_ text: String) {
        guard let payload = Base58Check.decode(text), payload.count == 78 else { return nil }
        depth = payload[4]
        childNumber = payload[9..<13].reduce(0) { $0 << 8 | UInt32($1) }
        chainCode = Array(payload[13..<45])
        key = Array(payload[45..<78])
    }
}
