/// How a Cashu amount reads in its unit. NUT-01 ("Supported Currency Units"): amounts are
/// integers in the smallest unit of the currency (its ISO 4217 minor unit: cents for `usd`,
/// whole yen for `jpy`, fils for `bhd`; stablecoins as the currency they are pegged to), `sat`
/// and `msat` are whole units, and `btc` counts satoshis. So a `usd` amount of 12300 is
/// $123.00, never 12,300 dollars.
public enum CashuUnit {
    /// Digits after the point of the unit a person reads, by Cashu unit (lower case). Only
    /// units listed here are shown scaled; any other is shown as a count of its smallest unit.
    static let minorUnitDigits: [String: Int] = [
        // Bitcoin.
        "sat": 0, "msat": 0, "btc": 8,
        // ISO 4217, two decimals.
        "usd": 2, "eur": 2, "gbp": 2, "chf": 2, "cad": 2, "aud": 2, "nzd": 2, "sek": 2, "nok": 2,
        "dkk": 2, "pln": 2, "czk": 2, "huf": 2, "ron": 2, "bgn": 2, "try": 2, "ils": 2, "zar": 2,
        "brl": 2, "mxn": 2, "ars": 2, "cop": 2, "pen": 2, "inr": 2, "cny": 2, "hkd": 2, "sgd": 2,
        "twd": 2, "thb": 2, "myr": 2, "php": 2, "idr": 2, "aed": 2, "sar": 2, "ngn": 2, "kes": 2,
        "egp": 2, "uah": 2,
        // ISO 4217, no decimals.
        "jpy": 0, "krw": 0, "isk": 0, "clp": 0, "vnd": 0, "pyg": 0, "ugx": 0, "xaf": 0, "xof": 0,
        // ISO 4217, three decimals.
        "bhd": 3, "kwd": 3, "omr": 3, "jod": 3, "tnd": 3, "lyd": 3, "iqd": 3,
        // Stablecoins, as their peg (NUT-01's examples).
        "usdt": 2, "usdc": 2, "eurc": 2, "gyen": 0,
    ]

    /// The amount exactly, for a program: in the unit a person reads (`123.00` usd), and the
    /// integer as the code carries it.
    public static func amount(_ value: UInt128, unit: String?) -> PaymentAmount {
        let unit = unit ?? "sat"
        guard let digits = minorUnitDigits[unit.lowercased()] else {
            return PaymentAmount(value: String(value), unit: unit, baseUnits: String(value))
        }
        return PaymentAmount(
            value: fixed(value, digits: digits), unit: unit, baseUnits: String(value))
    }

    /// For people: `123.00 usd`, `1,500 msat (1.5 sat)`, `42 (smallest unit of auth)`.
    public static func text(_ value: UInt128, unit: String?) -> String {
        guard let unit else {
            return "\(ExactDecimal.grouped(value)) sat (unit not stated; older wallets assume sat)"
        }
        let lower = unit.lowercased()
        guard let digits = minorUnitDigits[lower] else {
            return "\(ExactDecimal.grouped(value)) (smallest unit of \(unit))"
        }
        let whole = ExactDecimal.grouped(value / power(digits))
        let number = digits == 0 ? whole : whole + "." + fraction(value, digits: digits)
        if lower == "msat" {
            return "\(number) \(unit) (\(ExactDecimal.format(value, scale: 3)) sat)"
        }
        return "\(number) \(unit)"
    }

    /// An amount as a person types it in `unit` (`2.50` usd), in the unit's smallest part
    /// (250): exact, never rounded; finer than the smallest part is refused.
    public static func baseUnits(_ text: String, unit: String) throws(PaymentCodeError) -> UInt64 {
        let digits = minorUnitDigits[unit.lowercased()] ?? 0
        let value = try ExactDecimal.fixedPoint(
            text[...], scale: digits, field: "amount", unit: unit)
        guard let amount = UInt64(exactly: value) else {
            throw PaymentCodeError(
                .tooLarge, field: "amount", "'\(text)' is more than a Cashu amount holds")
        }
        return amount
    }

    /// `value / 10^digits` with exactly `digits` decimals (`12300`, 2 → `123.00`).
    private static func fixed(_ value: UInt128, digits: Int) -> String {
        digits == 0
            ? String(value) : "\(value / power(digits)).\(fraction(value, digits: digits))"
    }

    private static func fraction(_ value: UInt128, digits: Int) -> String {
        let text = String(value % power(digits))
        return String(repeating: "0", count: digits - text.count) + text
    }

    private static func power(_ digits: Int) -> UInt128 {
        (0..<digits).reduce(1) { product, _ in product * 10 }
    }
}
