/// Hexadecimal text for byte strings: lowercase out, either case in.
public enum Hex {
    /// Lowercase hex, with "0x" when prefix is true.
    public static func encode(_ bytes: some Sequence<UInt8>, prefix: Bool = true) -> String {
        let digits = Array(bytes)
        let count = (prefix ? 2 : 0) + 2 * digits.count
        return String(unsafeUninitializedCapacity: count) { out in
            var i = 0
            if prefix {
                out[0] = UInt8(ascii: "0")
                out[1] = UInt8(ascii: "x")
                i = 2
            }
            for byte in digits {
                out[i] = alphabet[Int(byte >> 4)]
                out[i + 1] = alphabet[Int(byte & 0x0f)]
                i += 2
            }
            return count
        }
    }

    /// Accepts an optional 0x/0X prefix, either case; throws on odd length or non-hex characters.
    ///
    /// Error offsets count UTF-8 bytes from the start of `text`, prefix included.
    public static func decode(_ text: some StringProtocol) throws(HexError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var start = 0
        if utf8.count >= 2, utf8[0] == UInt8(ascii: "0"),
            utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "X")
        {
            start = 2
        }
        let digitCount = utf8.count - start
        guard digitCount % 2 == 0 else {
            throw HexError(kind: .oddLength, offset: utf8.count)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digitCount / 2)
        var i = start
        while i < utf8.count {
            guard let high = value(of: utf8[i]) else {
                throw HexError(kind: .invalidCharacter, offset: i)
            }
            guard let low = value(of: utf8[i + 1]) else {
                throw HexError(kind: .invalidCharacter, offset: i + 1)
            }
            bytes.append(high << 4 | low)
            i += 2
        }
        return bytes
    }

    private static let alphabet: [UInt8] = Array("0123456789abcdef".utf8)

    static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}
