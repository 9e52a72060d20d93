import ArgumentParser
import Codecs
import Foundation
import NodeKit
import Tender
import WalletStore

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List payments made and received, oldest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            var entries: [(time: UInt64, json: [String: Any], text: String)] = []
            for payment in try wallet.store.outgoingPayments() {
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
                        "\(timestamp(payment.createdAt))  out  \(payment.amount)  to \(payment.payee)  \(payment.state.rawValue)  \(payment.requestID.short)"
                    ))
            }
            for payment in try wallet.store.incomingPayments() {
                entries.append(
                    (
                        payment.receivedAt,
                        [
                            "direction": "in", "requestId": payment.requestID.hex,
                            "amount": String(payment.amount), "asset": payment.asset.checksummed,
                            "memo": payment.memo, "state": "received", "time": payment.receivedAt,
                        ],
                        "\(timestamp(payment.receivedAt))  in   \(payment.amount)  \(terminalSafe(payment.memo))  received  \(payment.requestID.short)"
                    ))
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
}

/// Unix seconds as an ISO 8601 UTC time for people; JSON keeps the number.
func timestamp(_ seconds: UInt64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
}
