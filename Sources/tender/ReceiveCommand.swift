import ArgumentParser
import Camera
import Foundation
import NodeKit
import PaymentCodes
import QR
import Scanning
import Tender

struct ReceiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Verify a payment offline, accept it, and give back the signed receipt.",
        discussion: """
            The payment comes from a file, or is scanned (--camera, --image, --frames) as one \
            code or an animated sequence. With --qr the receipt is shown as a code on this \
            terminal for the payer to scan.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var source: ScanSource

    @Argument(help: "The payment file (omit when scanning).") var file: String?
    @Option(name: .customLong("receipt-out"), help: "Where to write the receipt for the payer.")
    var receiptOut: String?
    @Flag(help: "Show the receipt as a QR code on this terminal.") var qr = false
    @Flag(help: "With --qr: a dark terminal.") var dark = false
    @OptionGroup var video: FramesOutOptions

    func validate() throws {
        if file == nil {
            guard source.isGiven else {
                throw ValidationError(
                    "give the payment file, or scan it with --camera, --image or --frames")
            }
            try source.check()
        }
        guard video.framesOut == nil || qr else {
            throw ValidationError("--frames-out goes with --qr")
        }
        if file != nil, source.isGiven {
            throw ValidationError("give a payment file or a scan source, not both")
        }
    }

    func run() throws {
        try guarded {
            let bytes: [UInt8]
            if let file {
                bytes = try FileIO.read(file, limit: Envelope.maxBytes)
            } else {
                // A request or pay-me code in view is not the payment: keep scanning past it.
                let (found, framesScanned) = try source.firstPayload { bytes in
                    let code = ScannedCode.recognize(bytes)
                    guard case .tenderPayload = code else {
                        return "\(code.explanation) Not a payment."
                    }
                    return nil
                }
                guard let found else {
                    note("tender: no payment code found (\(framesScanned) frame(s) scanned)")
                    throw ExitCode(66)
                }
                bytes = found
            }
            let wallet = try global.openWallet()
            let key = try global.keys.walletKey()
            // A receipt that could not be written after accepting would look like a failure.
            try FileIO.checkWritable(receiptOut, video.framesOut)
            let received = try wallet.receive(bytes, key: key, now: global.clock.now())
            CrashPoint.receiveAccepted.hit()
            if let receiptOut { try FileIO.writeAtomically(received.receipt, to: receiptOut) }
            if qr {
                let matrix = try QREncoder.encode(received.receipt)
                try video.write([matrix])
                print(matrix.terminalText(inverted: dark))
                print("the payer scans this receipt")
            }
            if output.json {
                var result: [String: Any] = [
                    "requestId": received.requestID.hex, "amount": String(received.amount),
                    "asset": received.asset.checksummed, "coins": received.credited.map(\.id.hex),
                    "repeated": received.repeated,
                ]
                result["receipt"] = receiptOut
                try printJSON(result)
            } else {
                let again = received.repeated ? " (already accepted; same receipt)" : ""
                print("Received \(received.amount) in \(received.credited.count) coin(s)\(again)")
                if let receiptOut { print("Receipt: \(receiptOut)") }
            }
        }
    }
}
