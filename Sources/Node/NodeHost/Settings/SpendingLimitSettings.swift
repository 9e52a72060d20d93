import NodeKit
import Tender

/// `[[limits]]` in node.toml, one table per limit:
///
///     [[limits]]
///     payee = "0x…"        # or "any"
///     asset = "0x…"        # optional: the native coin (the zero address) by default
///     amount = "5000"      # base units: a string, or an integer
///     period = "24h"       # a rolling window: 90s, 30m, 24h, 7d, 1w, or seconds
enum SpendingLimitSettings {
    /// The limit `entry` sets, checked (`place` names it in messages).
    static func limit(
        _ entry: NodeSettingsFile.Limit, place: String
    ) throws(NodeError) -> SpendingLimit {
        let payeeText = entry.payee.value.text
        var payee: Address?
        if payeeText != "any" {
            do { payee = try Address(payeeText) } catch {
                throw NodeError(.usage("\(place).payee: \(error)"))
            }
        }
        var asset = Address.zero
        if let assetText = entry.asset?.value.text {
            do { asset = try Address(assetText) } catch {
                throw NodeError(.usage("\(place).asset: \(error)"))
            }
        }
        let amountText = entry.amount.value.text
        guard let amount = Amount(amountText), amount > 0 else {
            throw NodeError(
                .usage(
                    "\(place).amount must be a positive integer of base units, got '\(amountText)'")
            )
        }
        let periodText = entry.period.value.text
        guard let period = seconds(periodText), (1...longestPeriod).contains(period) else {
            throw NodeError(
                .usage(
                    "\(place).period must be a duration such as 90s, 30m, 24h, 7d, 1w, at most 366d, got '\(periodText)'"
                ))
        }
        return SpendingLimit(payee: payee, asset: asset, amount: amount, period: period)
    }

    /// The longest window a limit may look back (a year and a day): the spending ledger keeps
    /// no older payment, and every window fits any clock arithmetic.
    static let longestPeriod: UInt64 = 366 * 86_400

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
