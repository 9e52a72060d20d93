import NodeKit
import TOMLKit
import Tender
import WalletStore

/// `[[limits]]` in node.toml, one table per limit:
///
///     [[limits]]
///     payee = "0x…"        # or "any"
///     asset = "0x…"        # optional: the native coin (the zero address) by default
///     amount = "5000"      # base units: a string, or an integer
///     period = "24h"       # a rolling window: 90s, 30m, 24h, 7d, 1w, or seconds
enum SpendingLimitSettings {
    static let keys = ["payee", "asset", "amount", "period"]

    static func parse(
        _ value: any TOMLValueConvertible, file: String
    ) throws(NodeError)
        -> [SpendingLimit]
    {
        guard let array = value.array else {
            throw NodeError(.usage("\(file): limits must be tables, each [[limits]]"))
        }
        var limits: [SpendingLimit] = []
        for (index, entry) in array.enumerated() {
            let place = "\(file): limits[\(index)]"
            guard let table = entry.table else {
                throw NodeError(.usage("\(place) must be a table ([[limits]])"))
            }
            for key in table.keys where !keys.contains(key) {
                throw NodeError(
                    .usage(
                        "\(place): unknown key \(key) (known: \(keys.joined(separator: ", ")))"))
            }
            limits.append(try limit(table, place: place))
        }
        return limits
    }

    private static func limit(
        _ table: TOMLTable, place: String
    ) throws(NodeError)
        -> SpendingLimit
    {
        func text(_ key: String) throws(NodeError) -> String? {
            guard let value = table[key] else { return nil }
            if let int = value.int { return String(int) }
            guard let string = value.string else {
                throw NodeError(.usage("\(place).\(key) must be a string"))
            }
            return string
        }
        guard let payeeText = try text("payee") else {
            throw NodeError(.usage("\(place) needs payee (an address, or \"any\")"))
        }
        var payee: Address?
        if payeeText != "any" {
            do { payee = try Address(payeeText) } catch {
                throw NodeError(.usage("\(place).payee: \(error)"))
            }
        }
        var asset = Address.zero
        if let assetText = try text("asset") {
            do { asset = try Address(assetText) } catch {
                throw NodeError(.usage("\(place).asset: \(error)"))
            }
        }
        guard let amountText = try text("amount") else {
            throw NodeError(.usage("\(place) needs amount (base units)"))
        }
        guard let amount = Amount(amountText), amount > 0 else {
            throw NodeError(
                .usage(
                    "\(place).amount must be a positive integer of base units, got '\(amountText)'")
            )
        }
        guard let periodText = try text("period") else {
            throw NodeError(.usage("\(place) needs period (24h, 7d, …)"))
        }
        guard let period = seconds(periodText), period > 0 else {
            throw NodeError(
                .usage(
                    "\(place).period must be a duration such as 90s, 30m, 24h, 7d, 1w, got '\(periodText)'"
                ))
        }
        return SpendingLimit(payee: payee, asset: asset, amount: amount, period: period)
    }

    /// "90s", "30m", "24h", "7d", "1w", or plain seconds.
    static func seconds(_ text: String) -> UInt64? {
        let units: [Character: UInt64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let last = text.last else { return nil }
        let (digits, unit) = units[last].map { (text.dropLast(), $0) } ?? (Substring(text), 1)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = UInt64(digits) else {
            return nil
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: unit)
        return overflow ? nil : total
    }
}
