/// Decimal amounts read and written exactly with integers: no floating point anywhere, so
/// `0.1 BTC` is 10,000,000 satoshis and never 9,999,999.
enum ExactDecimal {
    /// `digits × 10^exponent`, which must be a whole number below 2^128 (`notWhole` says
    /// why when it is not).
    static func value(
        digits: [UInt8], exponent: Int, field: String,
        notWhole: String = "is not a whole number of base units"
    ) throws(PaymentCodeError)
        -> UInt128
    {
        var digits = digits
        var exponent = exponent
        while exponent < 0 {
            guard let last = digits.last else { break }
            guard last == UInt8(ascii: "0") else {
                throw PaymentCodeError(.malformedField, field: field, notWhole)
            }
            digits.removeLast()
            exponent += 1
        }
        var value: UInt128 = 0
        for digit in digits {
            value = try multiplyAdd(value, 10, UInt128(digit - UInt8(ascii: "0")), field: field)
        }
        guard exponent <= 39 || value == 0 else {
            throw PaymentCodeError(.malformedField, field: field, "exceeds 2^128 - 1")
        }
        for _ in 0..<max(0, exponent) where value != 0 {
            value = try multiplyAdd(value, 10, 0, field: field)
        }
        return value
    }

    private static func multiplyAdd(
        _ value: UInt128, _ factor: UInt128, _ addend: UInt128, field: String
    )
        throws(PaymentCodeError) -> UInt128
    {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        let (sum, overflow2) = product.addingReportingOverflow(addend)
        guard !overflow && !overflow2 else {
            throw PaymentCodeError(.malformedField, field: field, "exceeds 2^128 - 1")
        }
        return sum
    }

    /// A plain unsigned decimal integer (`1*DIGIT`); with `canonical`, no leading zeros.
    static func integer(
        _ text: Substring, field: String, canonical: Bool = true
    )
        throws(PaymentCodeError) -> UInt128
    {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy(URIText.isDigit) else {
            throw PaymentCodeError(
                .malformedField, field: field, "'\(text)' is not a decimal integer")
        }
        if canonical && bytes.count > 1 && bytes[0] == UInt8(ascii: "0") {
            throw PaymentCodeError(.malformedField, field: field, "'\(text)' has leading zeros")
        }
        return try value(digits: bytes, exponent: 0, field: field)
    }

    static func uint64(
        _ text: Substring, field: String, canonical: Bool = true
    )
        throws(PaymentCodeError) -> UInt64
    {
        let wide = try integer(text, field: field, canonical: canonical)
        guard let narrow = UInt64(exactly: wide) else {
            throw PaymentCodeError(.malformedField, field: field, "'\(text)' exceeds 2^64 - 1")
        }
        return narrow
    }

    /// `*DIGIT ["." *DIGIT]` (BIP21's amount) scaled by `10^scale`: `"20.3"` with scale 8 is
    /// 2,030,000,000. Digits beyond the scale must be zeros; at least one digit is required.
    static func fixedPoint(
        _ text: Substring, scale: Int, field: String, unit: String
    )
        throws(PaymentCodeError) -> UInt128
    {
        let bytes = Array(text.utf8)
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(URIText.isDigit) }),
            parts.contains(where: { !$0.isEmpty })
        else {
            throw PaymentCodeError(
                .malformedField, field: field,
                "'\(text)' is not a decimal number (digits with an optional '.', no commas)")
        }
        let whole = Array(parts[0])
        let fraction = parts.count == 2 ? Array(parts[1]) : []
        return try value(
            digits: whole + fraction, exponent: scale - fraction.count, field: field,
            notWhole: "'\(text)' is finer than the smallest unit (\(unit))")
    }

    /// EIP-681's `number`: `["-" / "+"] *DIGIT ["." 1*DIGIT] [("e" / "E") [1*DIGIT]]`, e.g.
    /// `2.014e18`. Must come out a non-negative whole number; read with integers only.
    static func scientific(_ text: Substring, field: String) throws(PaymentCodeError) -> UInt128 {
        var bytes = Array(text.utf8)[...]
        let bad = PaymentCodeError(
            .malformedField, field: field, "'\(text)' is not a number (digits, '.', 'e' exponent)")
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var exponent = 0
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            let power = bytes[bytes.index(after: e)...]
            guard power.count <= 4, power.allSatisfy(URIText.isDigit) else { throw bad }
            for digit in power { exponent = exponent * 10 + Int(digit - UInt8(ascii: "0")) }
            bytes = bytes[..<e]
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(URIText.isDigit) }),
            !(parts.count == 2 && parts[1].isEmpty), !(parts.count == 1 && parts[0].isEmpty)
        else { throw bad }
        let fraction = parts.count == 2 ? Array(parts[1]) : []
        let result = try value(
            digits: Array(parts[0]) + fraction, exponent: exponent - fraction.count, field: field)
        if negative && result != 0 {
            throw PaymentCodeError(.malformedField, field: field, "'\(text)' is negative")
        }
        return result
    }

    /// `value / 10^scale` in decimal, trailing zeros of the fraction dropped:
    /// `format(250_000, scale: 8)` is `"0.0025"`.
    static func format(_ value: UInt128, scale: Int) -> String {
        var digits = String(value)
        guard scale > 0 else { return digits }
        if digits.count <= scale {
            digits = String(repeating: "0", count: scale - digits.count + 1) + digits
        }
        let split = digits.index(digits.endIndex, offsetBy: -scale)
        var fraction = digits[split...]
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return fraction.isEmpty ? String(digits[..<split]) : digits[..<split] + "." + fraction
    }

    /// Groups thousands with commas for people: 1234567 → "1,234,567".
    static func grouped(_ value: UInt128) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
