import ArgumentParser
import DevTools
import Foundation
import NodeHost
import NodeKit
import NodeRuntime
import PaymentCodes
import QR
import QRTransport
import Scanning
import Tender

struct PayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay",
        abstract: "Pay offline: reserve coins, sign transfers, hand the payment over (file or QR).",
        discussion: """
            The payment is recorded (coins reserved) before it leaves the node; once handed \
            over, its change is spendable and the amount paid stays pending until the payee's \
            receipt is recorded: `tender receipt FILE`, or at once with `--qr --camera DEV`, \
            which shows the payment as (animated) codes and reads the receipt code from the \
            camera. If the file is lost, `tender payments export REQUEST-ID --out FILE` writes \
            the same payment again. A payment that could not be written at all is cancelled.

            Examples:
              tender pay --request 'tender:0x…?amount=…' --out payment.tender
              tender pay --to 0xBOB --amount 2.50 --memo tea --qr --camera /dev/video0
              tender pay --to 0xBOB --amount 2.50 --chain-id 10 --vault 0x… --out p.tender
              tender pay --cashu --request creqA… --qr
              tender pay --cashu --ble --amount 21 [--to 0xBOB]
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(
        help:
            "A scanned tender: request or pay-me code (fills --to, --amount, --asset, --request-id)."
    )
    var request: String?
    @Option(help: "Payee address.") var to: String?
    @Option(
        parsing: .unconditional,
        help:
            "Amount as people read it (2.50: at most the asset's decimals), or base units when the asset's decimals are not known."
    )
    var amount: String?
    @Option(help: "Asset (the zero address is the native coin).") var asset: String?
    @Option(
        name: .customLong("chain-id"),
        help:
            "With --to: pay from the wallet of this chain's vault (default: home if it covers the amount, else the only vault that does)."
    )
    var chainID: UInt64?
    @Option(help: "With --to: pay from the wallet of this vault (see --chain-id).")
    var vault: String?
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
    @Option(
        help:
            "With --qr: bytes per animated frame (default: as many as fit the terminal's width)."
    )
    var fragment: Int?
    @Option(
        help:
            "With --qr: passes of the loop to show without a camera, and to write with --frames-out."
    )
    var loops = 3
    @Option(
        help:
            "With --camera: give up after this many seconds (waiting for the receipt; with --ble, for the payee's code)."
    )
    var timeout: Double = 300
    @OptionGroup var video: FramesOutOptions
    @Flag(
        help:
            "Pay in Cashu ecash: --request creqA… (NUT-18), or --amount with --mint (and --to KEY to lock it)."
    )
    var cashu = false
    @Option(help: "With --cashu: the mint's URL.") var mint: String?
    @Option(
        help:
            "With --cashu --ble: hand over this token (a file, the token itself, or - for standard input) instead of giving one from the wallet."
    )
    var token: String?
    @Option(help: "With --cashu and --amount: the unit (sat, usd, …).") var unit = "sat"
    @Flag(help: "Pay a payee nearby over Bluetooth LE (with --to, or --request from its code).")
    var ble = false
    @Option(help: "With --ble: the Bluetooth adapter (hci0, …; default: the first).")
    var adapter: String?
    @Option(name: .customLong("scan-seconds"), help: "With --ble: how long to look for the payee.")
    var scanSeconds: Double = 30
    @Option(help: "With --ble: read the payee's request code from this image (PNG or PGM).")
    var image: String?
    @Option(
        help:
            "With --ble: gatt, l2cap (the payee's LE L2CAP channel when it offers one), or auto (l2cap for payments of more than 8 coins)."
    )
    var channel: NearbyPayment.Channel = .auto

    func validate() throws {
        // Every pass written with --frames-out is drawn in memory first (on a terminal the
        // passes are only played).
        if video.framesOut != nil, !(1...FramesOutOptions.maxLoops).contains(loops) {
            throw ValidationError(
                "--loops must be 1…\(FramesOutOptions.maxLoops) with --frames-out")
        }
        if cashu { return try validateCashu() }
        if ble {
            guard out == nil, !qr else {
                throw ValidationError("--ble pays over the air: drop --out and --qr")
            }
            let codes = [request != nil, camera != nil, image != nil].filter { $0 }.count
            guard codes <= 1 else {
                throw ValidationError("give one of --request, --camera and --image")
            }
            guard to != nil || codes == 1 else {
                throw ValidationError(
                    "--ble needs --to ADDRESS, or the payee's code: --request URI, --camera DEV or --image FILE"
                )
            }
        } else {
            guard out != nil || qr else {
                throw ValidationError("give --out FILE or --qr (or --ble)")
            }
            guard camera == nil || qr else {
                throw ValidationError("--camera goes with --qr or --ble")
            }
            guard image == nil else { throw ValidationError("--image goes with --ble") }
        }
        guard video.framesOut == nil || qr else {
            throw ValidationError("--frames-out goes with --qr")
        }
        if let fragment {
            let lengths = AnimatedCode.fragmentLengths(encoding)
            guard qr else { throw ValidationError("--fragment goes with --qr") }
            guard lengths.contains(fragment) else {
                throw ValidationError(
                    "--fragment must be \(lengths.lowerBound)…\(lengths.upperBound) for \(encoding.rawValue) codes"
                )
            }
        }
        if request != nil || (ble && (camera != nil || image != nil)) {
            for (given, option) in [
                (to, "--to"), (asset, "--asset"), (requestID, "--request-id"), (vault, "--vault"),
                (chainID.map(String.init), "--chain-id"),
            ]
            where given != nil {
                throw ValidationError("\(option) comes from the payee's code: drop it")
            }
        }
        guard memo.utf8.count <= PaymentRequest.maxMemoBytes else {
            throw ValidationError(
                "--memo is \(memo.utf8.count) bytes; at most \(PaymentRequest.maxMemoBytes)")
        }
        if let to { _ = try parseAddress(to, option: "--to") }
        if let asset { _ = try parseAddress(asset, option: "--asset") }
        if let vault { _ = try parseAddress(vault, option: "--vault") }
    }

    /// The payee's code as given (--request, or the code scanned for --ble).
    private func payeeCode(_ scannedCode: String? = nil) throws -> TenderCode? {
        guard let text = scannedCode ?? request else { return nil }
        do {
            return try TenderURI.decodeAny(text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw ValidationError(
                "\(scannedCode == nil ? "--request" : "the scanned code"): \(error)")
        }
    }

    /// The wallet that pays: the domain the payee's code names, else --chain-id/--vault,
    /// else the home wallet when it covers the amount, else the only other that does
    /// (`NodeHost.payingWallet`).
    private func payingWallet(code: TenderCode?, now: UInt64) throws -> Wallet {
        let host = global.host
        let named: Domain?
        let paid: Address
        switch code {
        case .request(let terms)?: (named, paid) = (terms.domain, terms.asset)
        case .payee(let payee)?: (named, paid) = (payee.domain, payee.asset)
        case nil:
            paid = try parseAddress(asset ?? NodeDefaults.asset.checksummed, option: "--asset")
            if vault == nil, chainID == nil {
                named = nil
            } else {
                named = try ChainTarget.resolve(
                    host, vault: try vault.map { try parseAddress($0, option: "--vault") },
                    chainID: chainID, rpc: nil
                ).domain
            }
        }
        let requested: Amount? = {
            if case .request(let terms)? = code { return terms.amount }
            return nil
        }()
        let amount = self.amount
        do {
            return try host.payingWallet(
                domain: named, payeeNamed: code != nil, asset: paid, now: now
            ) { wallet in
                if let requested { return requested }
                guard let amount else { return nil }
                return try? host.denominations(for: wallet).parse(amount, of: paid)
            }
        } catch {
            let units =
                named.map {
                    Denominations(
                        nativeCoin: (try? host.chainRegistry())?.nativeCoin(
                            chainID: $0.chainID, preferring: $0) ?? .baseUnits)
                } ?? Denominations()
            throw Failure.Worded(error: error, units: units)
        }
    }

    /// Terms from a scanned code, overridden by nothing: a request fixes them.
    private func terms(
        now: UInt64, domain: Domain, units: Denominations, code: TenderCode?
    ) throws -> (
        payee: Address, amount: Amount, asset: Address, id: Bytes32?, memo: String,
        request: PaymentRequest?
    ) {
        guard let code else {
            guard let to, let amount else {
                throw ValidationError("give --to and --amount, or --request")
            }
            let asset = try parseAddress(asset ?? NodeDefaults.asset.checksummed, option: "--asset")
            return (
                try parseAddress(to, option: "--to"), try units.parse(amount, of: asset), asset,
                try requestID.map { try parseRequestID($0, option: "--request-id") }, memo, nil
            )
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
            return (
                payee.payee, try units.parse(amount, of: payee.asset), payee.asset, nil, memo, nil
            )
        }
    }

    func run() async throws {
        if cashu { return try await payCashu() }
        if ble { return try await payOverBluetooth() }
        try await guarded {
            // A file that cannot be written is said before a payment is made (one found only
            // when handing over is cancelled, and stays in the list as cancelled).
            if let out { try FileIO.checkWritable(out) }
            let now = global.clock.now()
            let code = try payeeCode()
            let wallet = try payingWallet(code: code, now: now)
            let units = try global.host.denominations(for: wallet)
            let terms = try terms(now: now, domain: wallet.domain, units: units, code: code)
            var generator = SystemRandomNumberGenerator()
            let order = PaymentExchange.Order(
                payee: terms.payee, amount: terms.amount, asset: terms.asset, memo: terms.memo,
                requestID: terms.id ?? .random(using: &generator), request: terms.request)
            let key = try global.keys.walletKey()
            let exchange = PaymentExchange(wallet: wallet, clock: global.clock)
            let transport = try transport()
            let interrupted = qr ? InterruptNote(requestID: order.requestID) : nil
            defer { withExtendedLifetime(interrupted) {} }
            let outcome = try await worded(units) {
                try await elsewhereNoted(
                    wallet, asset: terms.asset, now: now, payeeNamed: code != nil
                ) {
                    try await exchange.pay(
                        order, key: key, via: transport, receiptTimeout: .seconds(timeout),
                        events: { event in
                            switch event {
                            case .prepared: CrashPoint.payPrepared.hit()
                            case .handedOver: CrashPoint.payHandedOver.hit()
                            case .skipped(let why):
                                note("that code is not this payment's receipt: \(why)")
                            case .sent, .receipt: break
                            }
                        })
                }
            }
            let record = outcome.record
            if output.json {
                var result: [String: Any] = [
                    "requestId": record.requestID.hex, "payee": record.payee.checksummed,
                    "amount": String(record.amount), "asset": record.asset.checksummed,
                    "state": record.state.rawValue,
                    "inputs": outcome.prepared.plan.spent.map(\.hex),
                    "change": outcome.prepared.plan.change.map { String($0.coin.amount) },
                    "paymentDigest": record.digest.hex,
                ]
                result["file"] = out
                try printJSON(result)
            } else {
                print(
                    "Paid \(units.format(record.amount, of: record.asset)) to \(record.payee)\(out.map { ": \($0)" } ?? "")"
                )
                if code == nil, wallet.domain != (try global.openWallet()).domain {
                    // Chosen here, not by the payee: it takes the payment only if it takes
                    // this vault's notes.
                    print(
                        "From \(wallet.domain), not the home vault: the payee takes it only if it takes that vault's notes."
                    )
                }
                print(
                    record.state == .spent
                        ? "Request \(record.requestID.hex): receipt recorded, payment spent."
                        : "Request \(record.requestID.hex) is pending until the payee's receipt is recorded."
                )
            }
        }
    }

    private func payOverBluetooth() async throws {
        try await guarded {
            let now = global.clock.now()
            let code = try payeeCode(try scannedRequestCode())
            let wallet = try payingWallet(code: code, now: now)
            let units = try global.host.denominations(for: wallet)
            let scanned =
                code == nil
                ? nil
                : try terms(now: now, domain: wallet.domain, units: units, code: code)
            let payment = NearbyPayment(
                wallet: wallet, clock: global.clock, adapterName: adapter, scanSeconds: scanSeconds,
                payee: try to.map { try parseAddress($0, option: "--to") } ?? scanned?.payee,
                amount: try amount.map { try units.parse($0, of: try amountAsset(scanned?.asset)) },
                request: scanned?.request, channel: channel)
            let quiet = output.json
            let result: NearbyPayment.Result
            let key = try global.keys.walletKey()
            do {
                result = try await worded(units) {
                    try await elsewhereNoted(
                        wallet, asset: try amountAsset(scanned?.asset), now: now,
                        payeeNamed: code != nil
                    ) {
                        try await payment.run(key: key) { progress in
                            guard let line = progress.line(units: units), !quiet else { return }
                            say(line)
                        }
                    }
                }
            } catch let mismatch as AmountMismatch {
                throw NodeError(
                    .usage(
                        "the payee asks for \(units.format(mismatch.asked, of: mismatch.asset)), not \(units.format(mismatch.offered, of: mismatch.asset)): nothing was paid"
                    ))
            }
            try result.report(json: output.json, units: units)
        }
    }

    /// `body`, whose insufficient-funds refusal lists what the node holds in other vaults.
    private func elsewhereNoted<T>(
        _ wallet: Wallet, asset: Address, now: UInt64, payeeNamed: Bool,
        _ body: () async throws -> T
    ) async throws -> T {
        do { return try await body() } catch let error as NodeError {
            throw global.host.noting(
                error, paying: wallet.domain, asset: asset, now: now, payeeNamed: payeeNamed)
        }
    }

    /// The asset `--amount` is typed in: the scanned code's, else --asset, else the native coin.
    private func amountAsset(_ scanned: Address?) throws -> Address {
        try scanned ?? asset.map { try parseAddress($0, option: "--asset") } ?? NodeDefaults.asset
    }

    /// With --camera or --image: the payee's request code, read before looking for the payee.
    private func scannedRequestCode() throws -> String? {
        guard camera != nil || image != nil else { return nil }
        let scan = CodeScan(
            camera.map { .camera($0, width: nil, height: nil, fps: nil, timeout: timeout) }
                ?? .images(image.map { [$0] } ?? []))
        if !output.json { say("reading the payee's code from \(camera ?? image ?? "")…") }
        let found = try scan.firstPayload(
            skip: { payload in
                guard let text = String(bytes: payload, encoding: .utf8),
                    case .request? = try? TenderURI.decodeAny(text)
                else { return "not a tender: payment request" }
                return nil
            }, events: noteScanEvent)
        guard let payload = found.payload else {
            throw NodeError(
                .missing("no payment request code in \(camera ?? image ?? "")"),
                note: "show the payee's request code (its `tender receive --ble` prints it)")
        }
        return String(decoding: payload, as: UTF8.self)
    }

    /// The media the payment goes out on: a file, a loop of codes (with a camera for the
    /// receipt), or both.
    private func transport() throws -> any PaymentTransport {
        let file = out.map { FileIO.transport(to: $0) }
        guard qr else { return file! }  // validate() requires --out or --qr
        let dark = self.dark
        let clip = video.clip
        let display: AnimatedCodeTransport.Display = { code, frame, frames in
            showOnTerminal(
                code, dark: dark, caption: "show this to the payee: frame \(frame)/\(frames)")
        }
        var recordPass: AnimatedCodeTransport.PassRecorder?
        if clip.framesOut != nil {
            recordPass = { @Sendable codes throws(NodeError) in
                let frames = try clip.render(codes)
                return { @Sendable () throws(NodeError) in try clip.write(rendered: frames) }
            }
        }
        // On a terminal, frames no wider than it: a wrapped code cannot be read.
        var fragmentLength = fragment
        if fragmentLength == nil, clip.framesOut == nil, let columns = TerminalFit.columns {
            fragmentLength = TerminalFit.fragment(fitting: columns, encoding: encoding)
            if fragmentLength == nil {
                note(
                    "tender: warning: this terminal is \(columns) columns, narrower than the smallest code; widen it, or pay with --out FILE"
                )
            }
        }
        let codes = AnimatedCodeTransport(
            encoding: encoding, fragmentLength: fragmentLength, camera: camera, loops: loops,
            display: display, recordPass: recordPass)
        guard let file else { return codes }
        return TransportPair(file, codes)
    }
}
