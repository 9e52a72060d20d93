/// Base64 decoding for Cashu tokens: the URL-safe alphabet (`-`, `_`) as NUT-00 specifies,
/// also the standard one (`+`, `/`) that some wallets emit; `=` padding optional but, when
/// present, correct. Whitespace is refused.
enum Base64URL {
    private static let table: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = Int8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    static func decode(_ text: Substring, field: String) throws(PaymentCodeError) -> [UInt8] {
        var bytes = Array(text.utf8)[...]
        var padding = 0
        while bytes.last == UInt8(ascii: "=") {
            bytes = bytes.dropLast()
            padding += 1
        }
        guard padding == 0 || (bytes.count + padding) % 4 == 0, padding <= 2, bytes.count % 4 != 1
        else {
            throw PaymentCodeError(
                .malformedField, field: field, "base64 length or padding is wrong")
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for (offset, character) in bytes.enumerated() {
            guard character < 128, table[Int(character)] >= 0 else {
                throw PaymentCodeError(
                    .malformedField, field: field,
                    "character at offset \(offset) is not base64")
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
