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
                        "\(timestamp(payment.receivedAt))  in   \(payment.amount)  \(payment.memo)  received  \(payment.requestID.short)"
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

struct PaymentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payments",
        abstract: "Act on outgoing payments: export one again, mark it in doubt, or cancel it.",
        subcommands: [ExportPaymentCommand.self, CancelPaymentCommand.self])
}

struct ExportPaymentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a recorded payment to a file again (the same signed bytes).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Request id (hex).") var requestID: String
    @Option(help: "File to write.") var out: String

    func run() throws {
        try guarded {
            let id = try Bytes32(hex: requestID)
            let wallet = try global.openWallet()
            guard let record = try wallet.store.outgoingPayment(id) else {
                throw NodeError(.store(WalletStoreError(.paymentNotFound(id))))
            }
            if record.state == .prepared { try wallet.handedOver(id, now: global.clock.now()) }
            try FileIO.writeAtomically(record.envelope, to: out)
            print("Payment \(id.hex) written to \(out)")
        }
    }
}

struct CancelPaymentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a payment that never left this node (state prepared); its coins return.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Request id (hex).") var requestID: String

    func run() throws {
        try guarded {
            let id = try Bytes32(hex: requestID)
            let state = try global.openWallet().store.advance(
                payment: id, by: .cancel, now: global.clock.now())
            print("Payment \(id.hex) is \(state.rawValue).")
        }
    }
}

struct EvidenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evidence", abstract: "List the double-spend proofs this wallet has found.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Also write each proof as a file into this directory.") var out: String?

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            var items: [[String: Any]] = []
            for (index, stored) in try wallet.store.evidenceBodies().enumerated() {
                let envelope = try wallet.decode(stored.body)
                guard case .evidence(let evidence) = envelope.message else { continue }
                var item: [String: Any] = [
                    "coin": evidence.coin.hex, "spender": evidence.spender.checksummed,
                    "first": evidence.first.transfer.digest(in: wallet.domain).hex,
                    "second": evidence.second.transfer.digest(in: wallet.domain).hex,
                    "foundAt": stored.foundAt,
                ]
                if let out {
                    let path = "\(out)/evidence-\(index + 1).tender"
                    try FileIO.writeAtomically(stored.body, to: path)
                    item["file"] = path
                }
                items.append(item)
            }
            if output.json {
                try printJSON(["evidence": items])
            } else {
                if items.isEmpty { print("No double spends seen.") }
                for item in items {
                    print("coin \(item["coin"]!) spent twice by \(item["spender"]!)")
                    print("  transfers \(item["first"]!) and \(item["second"]!)")
                }
            }
        }
    }
}

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode any Tender file and show its signed structs as EIP-712 typed data.")

    @OptionGroup var output: OutputOptions
    @Argument(help: "A Tender file (binary, or hex text).") var file: String

    func run() throws {
        try guarded {
            var bytes = try FileIO.read(file, limit: 2 * Envelope.maxBytes)
            if let text = String(bytes: bytes, encoding: .utf8),
                let decoded = try? Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                bytes = decoded
            }
            let decoded = Result { () throws(ProtocolError) in try Envelope.decode(bytes) }
            let envelope = try decoded.mapError { NodeError(.rejected($0)) }.get()
            let description = Inspection.describe(envelope)
            if output.json {
                try printJSON(description)
            } else {
                printText(description, indent: "")
            }
        }
    }

    private func printText(_ value: Any, indent: String) {
        if let dictionary = value as? [String: Any] {
            for key in dictionary.keys.sorted() {
                let item = dictionary[key]!
                if item is [String: Any] || item is [Any] {
                    print("\(indent)\(key):")
                    printText(item, indent: indent + "  ")
                } else {
                    print("\(indent)\(key): \(item)")
                }
            }
        } else if let array = value as? [Any] {
            for (index, item) in array.enumerated() {
                print("\(indent)[\(index)]")
                printText(item, indent: indent + "  ")
            }
        } else {
            print("\(indent)\(value)")
        }
    }
}

/// Unix seconds as an ISO 8601 UTC time for people; JSON keeps the number.
func timestamp(_ seconds: UInt64) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
}
