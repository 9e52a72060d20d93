import ArgumentParser
import Foundation
import NodeHost
import NodeKit
import Tender

struct PaymentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payments",
        abstract: "Outgoing payments: list them, export one again, or cancel one never sent.",
        subcommands: [
            ListPaymentsCommand.self, ExportPaymentCommand.self, CancelPaymentCommand.self,
        ],
        defaultSubcommand: ListPaymentsCommand.self)
}

struct ListPaymentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List outgoing payments with their state, newest last.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallets = try global.host.openWallets()
            var listed: [(wallet: Wallet, payment: OutgoingPaymentRecord)] = []
            for wallet in wallets.all {
                listed += try wallet.outgoingPayments().map { (wallet, $0) }
            }
            // Newest last across vaults, as within one.
            listed.sort { $0.payment.createdAt < $1.payment.createdAt }
            if output.json {
                try printJSON([
                    "payments": listed.map { wallet, payment -> [String: Any] in
                        [
                            "requestId": payment.requestID.hex, "payee": payment.payee.checksummed,
                            "amount": String(payment.amount), "asset": payment.asset.checksummed,
                            "memo": payment.memo, "state": payment.state.rawValue,
                            "paymentDigest": payment.digest.hex,
                            // The API's names; created and updated as before, for scripts.
                            "createdAt": payment.createdAt, "updatedAt": payment.updatedAt,
                            "created": payment.createdAt, "updated": payment.updatedAt,
                            "chainId": wallet.domain.chainID,
                            "vault": wallet.domain.vault.checksummed,
                        ]
                    }
                ])
                return
            }
            if listed.isEmpty { print("No outgoing payments.") }
            for (wallet, payment) in listed {
                let units = global.host.displayDenominations(for: wallet)
                let memo = payment.memo.isEmpty ? "" : "  \"\(terminalSafe(payment.memo))\""
                let place = wallet.domain == wallets.home.domain ? "" : "  (\(wallet.domain))"
                print(
                    "\(payment.requestID.hex)  \(payment.state.rawValue)  \(units.format(payment.amount, of: payment.asset)) to \(payment.payee)\(memo)  \(UTCTime.format(payment.createdAt))\(place)"
                )
            }
        }
    }
}

struct ExportPaymentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a recorded payment to a file again (the same signed bytes).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Request id (hex, as `tender payments list` shows it).") var requestID: String
    @Option(help: "File to write.") var out: String

    func run() throws {
        try guarded {
            let id = try parseRequestID(requestID)
            let wallet = try global.host.walletThatPaid(id)
            try FileIO.checkWritable(out)
            let envelope = try wallet.exportPayment(id, now: global.clock.now())
            try FileIO.writeAtomically(envelope, to: out)
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
            let id = try parseRequestID(requestID)
            let state = try global.host.walletThatPaid(id).cancelPayment(
                id, now: global.clock.now())
            print("Payment \(id.hex) is \(state.rawValue).")
        }
    }
}

/// A 32-byte request id in hex, with or without 0x.
func parseRequestID(_ text: String, option: String = "request id") throws -> Bytes32 {
    do { return try Bytes32(hex: text) } catch {
        throw ValidationError(
            "\(option) must be 64 hex digits (as `tender payments list` shows): \(error)")
    }
}
