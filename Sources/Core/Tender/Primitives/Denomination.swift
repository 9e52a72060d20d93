/// How people read and type amounts of one asset: its symbol and decimals. `2.50 USDC` is
/// 2,500,000 base units of a token with 6 decimals. Amounts stay base units on the wire, in
/// the database and in `--json`; only what a person reads or types goes through here. An
/// asset whose symbol and decimals are not known yet is shown and typed in base units
/// (`Denomination.baseUnits`), saying so.
public struct Denomination: Sendable, Hashable, CustomStringConvertible {
    /// nil: not known (base units).
    public let symbol: String?
    public let decimals: Int

    /// 10^38 no longer fits an amount (2^128 ≈ 3.4 × 10^38); no real asset comes near.
    public static let maxDecimals = 36
    /// Longer "symbols" are names or junk, not something to print beside every amount.
    public static let maxSymbolLength = 16

    public static let baseUnits = Denomination(unchecked: nil, decimals: 0)

    /// A symbol of 1–16 printable characters without spaces, and 0–36 decimals.
    public init(symbol: String, decimals: Int) throws(AmountTextError) {
        guard (0...Self.maxDecimals).contains(decimals) else {
            throw AmountTextError("decimals must be 0 to \(Self.maxDecimals), got \(decimals)")
        }
        guard Self.isPrintable(symbol) else {
            throw AmountTextError(
                "a symbol is 1 to \(Self.maxSymbolLength) printable characters without spaces")
        }
        // "100" with a symbol "0" would read as 10: a symbol is never part of a number.
        guard !symbol.allSatisfy({ $0.isASCIIDigit || $0 == "." }) else {
            throw AmountTextError("a symbol of digits and points would read as part of the amount")
        }
        self.init(unchecked: symbol, decimals: decimals)
    }

    private init(unchecked symbol: String?, decimals: Int) {
        self.symbol = symbol
        self.decimals = decimals
    }

    public var isKnown: Bool { symbol != nil }

    public var description: String {
        symbol.map { "\($0) (\(decimals) decimals)" } ?? "base units"
    }

    /// The amount with its symbol: `2.50 USDC`, `1.00 ETH`, `100 base units`.
    public func format(_ amount: Amount) -> String {
        "\(number(amount)) \(symbol ?? "base units")"
    }

    /// The amount as a number in this denomination, without the symbol: whole units, then the
    /// fraction with trailing zeros dropped but at least two digits kept (`2.50`, `0.000001`).
    public func number(_ amount: Amount) -> String {
        guard decimals > 0 else { return String(amount) }
        let scale = Self.power(decimals)
        let whole = amount / scale
        var fraction = String(amount % scale)
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        let kept = max(
            min(decimals, 2), fraction.count - fraction.reversed().prefix { $0 == "0" }.count)
        return "\(whole).\(fraction.prefix(kept))"
    }

    /// An amount a person typed: digits with at most `decimals` of them after a point, and
    /// this denomination's symbol after it if any (`2.5`, `2.50 USDC`). Exact: never rounded.
    public func parse(_ text: String) throws(AmountTextError) -> Amount {
        var number = Substring(text.trimmingSpaces)
        // The symbol after a space, or straight after the digits when it starts with neither
        // a digit nor a point (`2.50USDC`; `51INCH` is not 5 1INCH).
        if let symbol, number.hasSuffix(symbol) {
            let before = number.dropLast(symbol.count)
            let first = symbol.first!
            if before.last?.isWhitespace == true || !(first.isASCIIDigit || first == ".") {
                number = Substring(before.trimmingSpaces)
            }
        }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            parts.contains(where: { !$0.isEmpty })
        else {
            throw AmountTextError(
                "'\(text)' is not an amount in \(symbol ?? "base units"): \(mistake(in: number))"
            )
        }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= decimals else {
            throw AmountTextError(
                decimals == 0 && symbol == nil
                    ? "'\(text)': this asset's decimals are not known (its contract is read at sync), so give the amount in base units"
                    : "'\(text)' has \(fraction.count) decimals; \(symbol ?? "this asset") has \(decimals)"
            )
        }
        let digits = parts[0] + fraction + String(repeating: "0", count: decimals - fraction.count)
        guard let amount = Amount(String(digits)) else {
            throw AmountTextError(
                "'\(text)' is more than an amount can hold (2^128 − 1 base units)")
        }
        return amount
    }

    /// What is wrong with a typed amount that is not digits with at most one point, named
    /// (Docs/OPERATIONS.md, "Amounts").
    func mistake(in number: Substring) -> String {
        if number.hasPrefix("-") { return "an amount is never negative" }
        if number.contains(",") {
            return
                "write the fraction after a point, not a comma, and no thousands separators (12.50, 1250)"
        }
        if number.contains(where: \.isWhitespace) {
            let last = number.split(whereSeparator: \.isWhitespace).last ?? ""
            return last.contains(where: \.isLetter)
                ? "'\(last)' is not this asset's symbol\(symbol.map { " (\($0))" } ?? ""): the asset is chosen by its address, and the amount is the number\(symbol.map { ", with \($0) after it or not" } ?? " alone")"
                : "no spaces inside a number (1000, not 1 000)"
        }
        if number.filter({ $0 == "." }).count > 1 { return "one point at most" }
        if number.contains(where: { $0 == "e" || $0 == "E" }),
            number.allSatisfy({ $0.isASCIIDigit || "eE.+-".contains($0) })
        {
            return "no exponents: write the digits (1000, not 1e3)"
        }
        if number.isEmpty { return "nothing typed" }
        return "digits, with a point for a fraction"
    }

    static func power(_ exponent: Int) -> Amount {
        var result: Amount = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// 1–16 characters, none of them a space, a control or format character or unassigned.
    static func isPrintable(_ symbol: String) -> Bool {
        (1...maxSymbolLength).contains(symbol.count)
            && symbol.unicodeScalars.allSatisfy { scalar in
                let properties = scalar.properties
                return !properties.isWhitespace && !properties.isNoncharacterCodePoint
                    && ![.control, .format, .unassigned, .privateUse, .surrogate].contains(
                        properties.generalCategory)
            }
    }
}

/// Why a typed amount, or a symbol or decimals, was refused.
public struct AmountTextError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
