/// Base64 for Cashu tokens and requests (NUT-00, NUT-18): writes the URL-safe alphabet (`-`,
/// `_`) without padding, as NUT-00 specifies; reads it and also the standard alphabet (`+`,
/// `/`) that some wallets emit, with `=` padding optional but, when present, correct.
/// Whitespace is refused.
public enum Base64URL {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let table: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = Int8(index) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// URL-safe base64 without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = accumulator << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                out.append(alphabet[Int(accumulator >> UInt32(bits) & 63)])
            }
        }
        if bits > 0 { out.append(alphabet[Int(accumulator << UInt32(6 - bits) & 63)]) }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: Substring) throws(Base64URLError) -> [UInt8] {
        var bytes = Array(text.utf8)[...]
        var padding = 0
        while bytes.last == UInt8(ascii: "=") {
            bytes = bytes.dropLast()
            padding += 1
        }
        guard padding == 0 || (bytes.count + padding) % 4 == 0, padding <= 2, bytes.count % 4 != 1
        else { throw .badLength }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for (offset, character) in bytes.enumerated() {
            guard character < 128, table[Int(character)] >= 0 else {
                throw .invalidCharacter(offset: offset)
            }
            accumulator = accumulator << 6 | UInt32(table[Int(character)])
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }
}

/// Why `Base64URL.decode` refused its input.
public enum Base64URLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The length or the `=` padding cannot end a base64 text.
    case badLength
    /// A character outside both alphabets, at this UTF-8 offset.
    case invalidCharacter(offset: Int)

    public var description: String {
        switch self {
        case .badLength: "base64 length or padding is wrong"
        case .invalidCharacter(let offset): "character at offset \(offset) is not base64"
        }
    }
}
