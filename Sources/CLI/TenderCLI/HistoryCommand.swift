import ArgumentParser
import Foundation
import NodeKit
import Tender

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List payments made and received, oldest first.",
        discussion: """
            Every vault's: a payment in another vault than the home one names it (`chainId` \
            and `vault` in --json). A payment received says what became of it on chain: \
            received (held, or paid onward), redeeming (in a redeem not yet final), \
            redeemed, or part-redeemed (the rest paid onward, held, or refused by the vault), \
            with the transaction (`redeemed`, `redeeming` and `redeemTransactions` \
            in --json). The change of a payment out, once redeemed, counts toward no payment \
            received (`tender balance` shows all that was redeemed).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallets = try global.host.openWallets()
            var entries: [(time: UInt64, json: [String: Any], text: String)] = []
            for wallet in wallets.all {
                let units = try global.host.denominations(for: wallet)
                let place = wallet.domain == wallets.home.domain ? "" : "  (\(wallet.domain))"
                for var entry in try Self.entries(of: wallet, units: units) {
                    entry.json["chainId"] = wallet.domain.chainID
                    entry.json["vault"] = wallet.domain.vault.checksummed
                    entry.text += place
                    entries.append(entry)
                }
            }
            // Within one second, receiving comes first: money is received before it is spent.
            entries.sort {
                ($0.time, $0.json["direction"] as! String) < (
                    $1.time, $1.json["direction"] as! String
                )
            }
            if output.json {
                try printJSON(["history": entries.map(\.json)])
            } else {
                if entries.isEmpty { print("No payments yet.") }
                entries.forEach { print($0.text) }
            }
        }
    }

    /// `wallet`'s payments out and in, each with its time, JSON and line.
    static func entries(
        of wallet: Wallet, units: Denominations
    ) throws -> [(time: UInt64, json: [String: Any], text: String)] {
        var entries: [(time: UInt64, json: [String: Any], text: String)] = []
        for payment in try wallet.outgoingPayments() {
            let memo = payment.memo.isEmpty ? "" : "  \"\(terminalSafe(payment.memo))\""
            entries.append(
                (
                    payment.createdAt,
                    [
                        "direction": "out", "requestId": payment.requestID.hex,
                        "counterparty": payment.payee.checksummed,
                        "amount": String(payment.amount),
                        "asset": payment.asset.checksummed, "memo": payment.memo,
                        "state": payment.state.rawValue, "time": payment.createdAt,
                    ],
                    "\(UTCTime.format(payment.createdAt))  out  \(units.format(payment.amount, of: payment.asset))  to \(payment.payee)\(memo)  \(payment.state.rawValue)  \(payment.requestID.hex)"
                ))
        }
        for payment in try wallet.incomingPayments() {
            let memo = payment.memo.isEmpty ? "" : "  \"\(terminalSafe(payment.memo))\""
            let from = payment.payer.map { "  from \($0)" } ?? ""
            let settlement = payment.settlement
            let state = settlement.state(of: payment.amount)
            var json: [String: Any] = [
                "direction": "in", "requestId": payment.requestID.hex,
                "amount": String(payment.amount), "asset": payment.asset.checksummed,
                "memo": payment.memo, "state": state.rawValue, "time": payment.receivedAt,
                "redeemed": String(settlement.redeemed),
                "redeeming": String(settlement.redeeming),
                "redeemTransactions": settlement.transactions.map(\.hex),
            ]
            json["counterparty"] = payment.payer?.checksummed
            entries.append(
                (
                    payment.receivedAt, json,
                    "\(UTCTime.format(payment.receivedAt))  in   \(units.format(payment.amount, of: payment.asset))\(from)\(memo)  \(Self.said(settlement, of: payment, units))  \(payment.requestID.hex)"
                ))
        }
        return entries
    }

    /// A received payment's state in words, with what of it went on chain: `received`,
    /// `redeemed (tx 0x…)`, or the amounts when only part of it was (the rest paid onward or
    /// still held).
    static func said(
        _ settlement: IncomingSettlement, of payment: IncomingPaymentRecord, _ units: Denominations
    ) -> String {
        let transactions = settlement.transactions.map(\.hex).joined(separator: ", ")
        let state = settlement.state(of: payment.amount)
        switch state {
        case .received: return state.rawValue
        case .redeemed: return "redeemed (tx \(transactions))"
        case .redeeming, .partRedeemed:
            var parts: [String] = []
            if settlement.redeemed > 0 {
                parts.append(
                    "\(units.format(settlement.redeemed, of: payment.asset)) redeemed (tx \(transactions))"
                )
            }
            if settlement.redeeming > 0 {
                parts.append("\(units.format(settlement.redeeming, of: payment.asset)) redeeming")
            }
            return "\(state.rawValue): " + parts.joined(separator: ", ")
        }
    }
}
