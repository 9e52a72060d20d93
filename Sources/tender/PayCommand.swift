import ArgumentParser
import Camera
import Foundation
import NodeKit
import PaymentCodes
import QR
import Scanning
import Tender

struct PayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay",
        abstract: "Pay offline: reserve coins, sign transfers, hand the payment over (file or QR).",
        discussion: """
            The payment is recorded (coins reserved) before it leaves the node. If the file is \
            lost, `tender payments export REQUEST-ID --out FILE` writes the same payment again. \
            The change becomes spendable when the payee's receipt is recorded: `tender receipt \
            FILE`, or at once with `--qr --camera DEV`, which shows the payment as (animated) \
            codes and reads the receipt code from the camera.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(
        help:
            "A scanned tender: request or pay-me code (fills --to, --amount, --asset, --request-id)."
    )
    var request: String?
    @Option(help: "Payee address.") var to: String?
    @Option(help: "Amount in the asset's base unit.") var amount: String?
    @Option(help: "Asset (the zero address is the native coin).") var asset: String?
    @Option(help: "A note for the payee (at most 140 bytes).") var memo = ""
    @Option(
        name: .customLong("request-id"), help: "The payee's request id (hex); random if omitted.")
    var requestID: String?
    @Option(help: "File to write the payment to.") var out: String?
    @Flag(help: "Show the payment as QR codes on this terminal.") var qr = false
    @Option(help: "With --qr: read the payee's receipt code from this camera.") var camera: String?
    @Option(help: "With --qr: animated encoding, binary or ur.")
    var encoding: AnimatedCode.Encoding = .binary
    @Flag(help: "With --qr: a dark terminal.") var dark = false
    @Option(help: "With --qr and no camera: passes of the loop to show.") var loops = 3
    @Option(help: "With --camera: give up waiting for the receipt after this many seconds.")
    var timeout: Double = 300
    @OptionGroup var video: FramesOutOptions

    func validate() throws {
        guard out != nil || qr else { throw ValidationError("give --out FILE or --qr") }
        guard camera == nil || qr else { throw ValidationError("--camera goes with --qr") }
        guard video.framesOut == nil || qr else {
            throw ValidationError("--frames-out goes with --qr")
        }
        if request != nil {
            for (given, option) in [(to, "--to"), (asset, "--asset"), (requestID, "--request-id")]
            where given != nil {
                throw ValidationError("\(option) comes from the scanned code: drop it or --request")
            }
        }
        guard memo.utf8.count <= PaymentRequest.maxMemoBytes else {
            throw ValidationError(
                "--memo is \(memo.utf8.count) bytes; at most \(PaymentRequest.maxMemoBytes)")
        }
        if let to { _ = try parseAddress(to, option: "--to") }
        if let amount { _ = try parseAmount(amount) }
        if let asset { _ = try parseAddress(asset, option: "--asset") }
    }

    /// Terms from a scanned code, overridden by nothing: a request fixes them.
    private func terms(
        now: UInt64, domain: Domain
    ) throws -> (
        payee: Address, amount: Amount, asset: Address, id: Bytes32?, memo: String,
        request: PaymentRequest?
    ) {
        guard let request else {
            guard let to, let amount else {
                throw ValidationError("give --to and --amount, or --request")
            }
            return (
                try parseAddress(to, option: "--to"), try parseAmount(amount),
                try parseAddress(asset ?? NodeDefaults.asset.checksummed, option: "--asset"),
                try requestID.map { (text) throws -> Bytes32 in
                    do { return try Bytes32(hex: text) } catch {
                        throw ValidationError("--request-id: \(error)")
                    }
                }, memo, nil
            )
        }
        let code: TenderCode
        do {
            code = try TenderURI.decodeAny(request.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw NodeError(.usage("--request: \(error)"))
        }
        switch code {
        case .request(let terms):
            guard amount == nil, memo.isEmpty else {
                throw ValidationError(
                    "the request fixes the amount and memo: drop --amount and --memo")
            }
            do { try terms.checkPayable(in: domain, now: now) } catch {
                throw NodeError(.rejected(error))
            }
            return (terms.payee, terms.amount, terms.asset, terms.id, terms.memo, terms)
        case .payee(let payee):
            guard payee.domain == domain else {
                throw NodeError(
                    .rejected(ProtocolError(.wrongDomain(expected: domain, actual: payee.domain))))
            }
            guard let amount else { throw ValidationError("a pay-me code needs --amount") }
            return (payee.payee, try parseAmount(amount), payee.asset, nil, memo, nil)
        }
    }

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            let now = global.clock.now()
            let terms = try terms(now: now, domain: wallet.domain)
            var generator = SystemRandomNumberGenerator()
            let id = terms.id ?? .random(using: &generator)
            let key = try global.keys.walletKey()
            // What can fail before the payment leaves fails before it is prepared (camera) or
            // while it is still only prepared (its codes), and then nothing is spent.
            let webcam = try camera.map { try Webcam(device: $0) }
            try FileIO.checkWritable(out, video.framesOut)
            let (plan, envelope) = try wallet.preparePayment(
                to: terms.payee, amount: terms.amount, asset: terms.asset, memo: terms.memo,
                requestID: id, request: terms.request, key: key, now: now)
            CrashPoint.payPrepared.hit()
            var loop: AnimatedCode?
            var clip: [UInt8]?
            if qr {
                do {
                    var code = try AnimatedCode(payload: envelope, encoding: encoding)
                    loop = code
                    // One pass as video; a player repeats it (the receiver joins anywhere).
                    clip = try video.render(
                        try (0..<code.frameCount).map { _ in try code.nextMatrix() })
                } catch {
                    _ = try? wallet.cancelPayment(id, now: now)
                    throw error
                }
            }
            // Marked handed over before the file exists: a payment that may be on disk (and so
            // may reach the payee) must never be cancellable. A crash before the write leaves a
            // pending payment that `payments export` writes again, byte for byte.
            try wallet.handedOver(id, now: now)
            CrashPoint.payHandedOver.hit()
            if let out { try FileIO.writeAtomically(envelope, to: out) }
            if let clip, let framesOut = video.framesOut {
                try FileIO.writeAtomically(clip, to: framesOut)
            }
            var state = "pending"
            if var loop {
                state = try showAndAwaitReceipt(&loop, id: id, webcam: webcam, wallet: wallet)
            }
            if output.json {
                var result: [String: Any] = [
                    "requestId": id.hex, "payee": terms.payee.checksummed,
                    "amount": String(terms.amount),
                    "asset": terms.asset.checksummed, "state": state,
                    "inputs": plan.spent.map(\.hex),
                    "change": plan.change.map { String($0.coin.amount) },
                    "paymentDigest": plan.digest.hex,
                ]
                result["file"] = out
                try printJSON(result)
            } else {
                print("Paid \(terms.amount) to \(terms.payee)\(out.map { ": \($0)" } ?? "")")
                print(
                    state == "spent"
                        ? "Request \(id.hex): receipt recorded, payment spent."
                        : "Request \(id.hex) is pending until the payee's receipt is recorded.")
            }
        }
    }

    /// Plays the payment's codes on the terminal; with a camera, scans between frames until
    /// the payee's receipt code for request `id` appears and records it. Returns the state.
    private func showAndAwaitReceipt(
        _ code: inout AnimatedCode, id: Bytes32, webcam: Webcam?, wallet: Wallet
    ) throws -> String {
        let pipeline = ScanPipeline()
        let frameTime = 0.1
        var shown = 0
        var nextFrame = Date()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if Date() >= nextFrame {
                let matrix = try code.nextMatrix()
                showOnTerminal(
                    matrix, dark: dark,
                    caption:
                        "show this to the payee: frame \(shown % code.frameCount + 1)/\(code.frameCount)"
                )
                shown += 1
                nextFrame = Date().addingTimeInterval(frameTime)
            }
            guard let webcam else {
                if shown >= code.frameCount * max(1, loops) { return "pending" }
                Thread.sleep(forTimeInterval: frameTime)
                continue
            }
            // A short wait keeps the terminal loop playing while the camera has nothing.
            guard let frame = try webcam.nextFrame(timeout: frameTime / 2) else { continue }
            for event in pipeline.process(frame) {
                guard case .payload(let bytes) = event else { continue }
                // A receipt still on the payee's screen from an earlier payment is not this one's.
                do {
                    let record = try wallet.recordReceipt(
                        bytes, for: id, now: global.clock.now())
                    return record.state.rawValue
                } catch {
                    note("that code is not this payment's receipt: \(error)")
                }
            }
        }
        return "pending"
    }
}
