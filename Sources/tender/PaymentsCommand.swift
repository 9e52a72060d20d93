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
            // One transaction checks the state and makes a prepared payment pending: a
            // cancelled one (coins released) is refused, and none can be cancelled after this.
            try FileIO.checkWritable(out)
            _ = try wallet.store.advance(payment: id, by: .export, now: global.clock.now())
            guard let record = try wallet.store.outgoingPayment(id) else {
                throw NodeError(.store(WalletStoreError(.paymentNotFound(id))))
            }
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
