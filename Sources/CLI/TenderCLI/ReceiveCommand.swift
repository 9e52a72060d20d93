import ArgumentParser
import Camera
import DevTools
import Foundation
import NodeHost
import NodeKit
import PaymentCodes
import QR
import Scanning
import Tender

struct ReceiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Verify a payment offline, accept it, and give back the signed receipt.",
        discussion: """
            The payment comes from a file, or is scanned (--camera, --image, --frames) as one \
            code or an animated sequence. With --qr the receipt is shown as a code on this \
            terminal for the payer to scan. A Cashu token (cashuA…/cashuB…) is taken into the \
            Cashu wallet offline, as `tender cashu receive` takes it; it has no receipt.

            Examples:
              tender receive payment.tender --receipt-out receipt.tender
              tender receive token.txt
              tender receive --camera /dev/video0 --qr
              tender receive notes.tender
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
    @OptionGroup var bluetooth: BluetoothReceiveOptions

    func validate() throws {
        if bluetooth.ble {
            guard file == nil, !source.isGiven, receiptOut == nil, !qr else {
                throw ValidationError(
                    "--ble takes payments over the air: no file, scan or receipt options")
            }
            guard let amount = bluetooth.amount else {
                throw ValidationError("--ble needs --amount")
            }
            guard !amount.isEmpty else { throw ValidationError("--amount is empty") }
            try checkRequestLifetime(bluetooth.expiresIn)
            guard bluetooth.memo.utf8.count <= PaymentRequest.maxMemoBytes else {
                throw ValidationError("--memo is longer than \(PaymentRequest.maxMemoBytes) bytes")
            }
            return
        }
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

    func run() async throws {
        if bluetooth.ble {
            return try await guarded {
                try await BluetoothReceiver(options: bluetooth, global: global, json: output.json)
                    .run()
            }
        }
        try await guarded {
            // A scan unlocks the key first: the passphrase is asked, and the key derived,
            // before the payer shows the code rather than while they wait for the receipt. A
            // folder with no wallet key is asked nothing (a Cashu token needs none).
            let keyBeforeScan = file == nil ? try global.keys.walletKeyIfPresent() : nil
            let bytes = try payment()
            // A Cashu token is taken into the Cashu wallet, as `tender cashu receive` takes it.
            if ScannedCode.recognize(bytes).isCashuToken {
                if receiptOut != nil || qr {
                    note(
                        "tender: note: a Cashu token has no receipt: nothing is written or shown for one"
                    )
                }
                let payment = try global.host.openCashu(signing: false).receive(
                    String(decoding: bytes, as: UTF8.self), now: global.clock.now(),
                    requireLock: false)
                return try reportCashuReceived(payment, json: output.json)
            }
            // The payment's domain picks the wallet: home, or another listed chain's.
            let wallet = try global.host.openWallet(forPayload: bytes)
            let key = try keyBeforeScan ?? global.keys.walletKey()
            // A receipt that could not be written after accepting would look like a failure.
            // A receipt can always be had again (receiving the same payment returns it), so an
            // existing receipt file may be replaced.
            try FileIO.checkWritable(receiptOut, video.framesOut, replacing: true)
            let (receiptOut, clip, qr, dark) = (self.receiptOut, video.clip, self.qr, self.dark)
            let source = PaymentInHand(bytes) { receipt throws(NodeError) in
                CrashPoint.receiveAccepted.hit()
                if let receiptOut {
                    try FileIO.writeAtomically(receipt, to: receiptOut, replacing: true)
                }
                if qr {
                    let matrix: QRMatrix
                    do { matrix = try QREncoder.encode(receipt) } catch {
                        throw NodeError(.io("cannot show the receipt as a code: \(error)"))
                    }
                    try clip.write([matrix])
                    print(matrix.terminalText(inverted: dark))
                    print("the payer scans this receipt")
                }
            }
            var delivered: Wallet.Received?
            // A refusal names amounts as the payee reads them (a floor of 0.01 ETH).
            try await worded(global.host.displayDenominations(for: wallet)) {
                try await PaymentExchange(wallet: wallet, clock: global.clock).receive(
                    from: source, key: key, once: true
                ) { delivery in
                    if case .accepted(let received) = delivery { delivered = received }
                }
            }
            guard let received = delivered else { return }
            if output.json {
                var result: [String: Any] = [
                    "requestId": received.requestID.hex, "amount": String(received.amount),
                    "asset": received.asset.checksummed, "coins": received.credited.map(\.id.hex),
                    "payer": received.payer.checksummed, "memo": received.memo,
                    "repeated": received.repeated,
                ]
                result["receipt"] = receiptOut
                try printJSON(result)
            } else {
                let again = received.repeated ? " (already accepted; same receipt)" : ""
                // Accepted already: only shown, it cannot fail the command now.
                let amount = global.host.displayDenominations(for: wallet).format(
                    received.amount, of: received.asset)
                print(
                    "Received \(amount) in \(received.credited.count) coin(s) from \(received.payer)\(again)"
                )
                if !received.memo.isEmpty { print("Memo: \(terminalSafe(received.memo))") }
                if let receiptOut { print("Receipt: \(receiptOut)") }
            }
        }
    }

    /// The payment's bytes: the file, or the first payment code the source shows (a request
    /// or pay-me code in view is not the payment: scanning goes on past it).
    private func payment() throws -> [UInt8] {
        if let file { return try FileIO.read(file, limit: Envelope.maxBytes) }
        let (found, framesScanned) = try source.firstPayload { bytes in
            let code = ScannedCode.recognize(bytes)
            guard case .tenderPayload = code else { return "\(code.explanation) Not a payment." }
            return nil
        }
        guard let found else {
            throw NodeError(.missing("no payment code found (\(framesScanned) frame(s) scanned)"))
        }
        return found
    }
}
