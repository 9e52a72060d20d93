import ArgumentParser
import Camera
import Foundation
import NodeHost
import NodeKit
import PaymentCodes
import QR
import Scanning
import Tender

struct ReceiptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt",
        abstract: "Record the payee's receipt: the payment becomes spent and its change spendable.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The receipt file.") var file: String

    func run() throws {
        try guarded {
            let bytes = try FileIO.read(file, limit: Envelope.maxBytes)
            let record = try global.host.openWallet(forPayload: bytes).recordReceipt(
                bytes, now: global.clock.now())
            if output.json {
                try printJSON(["requestId": record.requestID.hex, "state": record.state.rawValue])
            } else {
                print(
                    "Payment \(record.requestID.hex) to \(record.payee) is \(record.state.rawValue)."
                )
            }
        }
    }
}
