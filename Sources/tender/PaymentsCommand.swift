import ArgumentParser
import Codecs
import Foundation
import NodeKit
import Tender
import WalletStore

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
            let id = try Bytes32(hex: requestID)
            let state = try global.openWallet().cancelPayment(id, now: global.clock.now())
            print("Payment \(id.hex) is \(state.rawValue).")
        }
    }
}
