// Shared pieces of URI handling: scheme matching, query splitting, percent-encoding, and
// exact decimal amounts. All byte-oriented, no Foundation.

/// One `key=value` pair of a URI query, both percent-decoded.
public struct URIParameter: Hashable, Sendable {
    public let key: String
    public let value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

enum URIText {
    /// The rest of `text` after `scheme:` when it starts with it, ignoring the scheme's case.
    static func strip(scheme: String, from text: Substring) -> Substring? {
        let prefix = scheme + ":"
        guard text.utf8.count >= prefix.utf8.count else { return nil }
        let head = text.utf8.prefix(prefix.utf8.count)
        guard head.elementsEqual(prefix.utf8, by: { asciiLower($0) == asciiLower($1) }) else {
            return nil
        }
        return text[head.endIndex...]
    }

    static func asciiLower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// Splits `a=1&b=2` into raw (still percent-encoded) pairs. An empty query gives no pairs;
    /// an empty parameter (`a=1&&b=2`) or one without `=` is refused.
    static func rawPairs(
        _ query: Substring, allowBareKeys: Bool = false
    ) throws(PaymentCodeError)
        -> [(key: Substring, value: Substring)]
    {
        if query.isEmpty { return [] }
        var pairs: [(key: Substring, value: Substring)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: false) {
            guard !part.isEmpty else {
                throw PaymentCodeError(
                    .malformedField, field: "query", "empty parameter (stray '&')")
            }
            if let equals = part.firstIndex(of: "=") {
                let key = part[..<equals]
                guard !key.isEmpty else {
                    throw PaymentCodeError(
                        .malformedField, field: "query", "parameter '\(part)' has no name")
                }
                pairs.append((key, part[part.index(after: equals)...]))
            } else if allowBareKeys {
                pairs.append((part, part[part.endIndex...]))
            } else {
                throw PaymentCodeError(
                    .malformedField, field: String(part), "parameter has no '=' and no value")
            }
        }
        return pairs
    }

    /// Decoded pairs, refusing a key that appears twice.
    static func parameters(
        _ query: Substring, allowBareKeys: Bool = false
    ) throws(PaymentCodeError)
        -> [URIParameter]
    {
        var seen: Set<String> = []
        var result: [URIParameter] = []
        for (rawKey, rawValue) in try rawPairs(query, allowBareKeys: allowBareKeys) {
            let key = try percentDecode(rawKey, field: "parameter name")
            guard seen.insert(key).inserted else {
                throw PaymentCodeError(.duplicateField, field: key, "appears more than once")
            }
            result.append(URIParameter(key: key, value: try percentDecode(rawValue, field: key)))
        }
        return result
    }

    /// RFC 3986 unreserved characters, which never need escaping.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Characters RFC 3986 allows unescaped in a query value, less `&`, `=` (our separators)
    /// and `+` (which form encoding reads as a space: refused as ambiguous where strict).
    static func isQueryValueCharacter(_ byte: UInt8, allowPlus: Bool) -> Bool {
        if isUnreserved(byte) { return true }
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        case UInt8(ascii: "+"): return allowPlus
        default: return false
        }
    }

    /// Percent-encodes UTF-8: unreserved characters stay, every other byte becomes `%XX`.
    static func percentEncode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(upperHex[Int(byte >> 4)])
                out.append(upperHex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let upperHex = Array("0123456789ABCDEF".utf8)

    /// Decodes `%XX` escapes (either case) and checks that the result is UTF-8. `+` stays a
    /// plus sign (RFC 3986, not form encoding) unless `strict`, which refuses it, along with
    /// any character RFC 3986 does not allow in a query.
    static func percentDecode(
        _ text: Substring, field: String, strict: Bool = false
    )
        throws(PaymentCodeError) -> String
    {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < bytes.count,
                    let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2])
                else {
                    throw PaymentCodeError(
                        .malformedField, field: field,
                        "'%' at offset \(i) is not followed by two hex digits")
                }
                out.append(high << 4 | low)
                i += 3
                continue
            }
            if strict && !isQueryValueCharacter(byte, allowPlus: false) {
                throw PaymentCodeError(
                    .malformedField, field: field,
                    "character '\(String(decoding: [byte], as: UTF8.self))' at offset \(i) must be percent-encoded"
                )
            }
            if !strict && (byte < 0x21 || byte >= 0x7F) {
                throw PaymentCodeError(
                    .malformedField, field: field,
                    "raw byte 0x\(String(byte, radix: 16)) at offset \(i) must be percent-encoded")
            }
            out.append(byte)
            i += 1
        }
        guard let decoded = String(validating: out, as: UTF8.self) else {
            throw PaymentCodeError(.malformedField, field: field, "is not valid UTF-8 once decoded")
        }
        return decoded
    }

    static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
