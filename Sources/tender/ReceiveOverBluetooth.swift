import ArgumentParser
import BlueZ
import Bluetooth
import DevTools
import Foundation
import NodeHost
import NodeKit
import PaymentCodes
import QR
import Tender

/// `tender receive --ble` options.
struct BluetoothReceiveOptions: ParsableArguments {
    @Flag(help: "Take payments over Bluetooth LE: advertise a request and serve payers nearby.")
    var ble = false
    @Option(
        parsing: .unconditional,
        help:
            "With --ble: the amount each payment must bring, as people read it (or base units when the asset's decimals are not known)."
    )
    var amount: String?
    @Option(help: "With --ble: the asset (the zero address is the native coin).")
    var asset: String = NodeDefaults.asset.checksummed
    @Option(help: "With --ble: what the payment is for (at most 140 bytes).") var memo = ""
    @Option(
        name: .customLong("expires-in"), help: "With --ble: seconds each request stays payable.")
    var expiresIn: UInt64 = 900
    @Flag(help: "With --ble: stop after one payment.") var once = false
    @Option(help: "With --ble: the Bluetooth adapter (hci0, …; default: the first).")
    var adapter: String?
    @Option(
        name: .customLong("code-out"),
        help: "With --ble: also write each request's code to this PNG file (for a display).")
    var codeOut: String?
}

/// The payee's loop: a request advertised (and shown as a code with the session key), each
/// payment accepted as it lands and answered with its receipt, then a fresh request.
struct BluetoothReceiver {
    let options: BluetoothReceiveOptions
    let global: GlobalOptions
    let json: Bool

    func run() async throws {
        let wallet = try global.openWallet()
        let units = try global.host.denominations(for: wallet)
        let key = try global.keys.walletKey()
        let clock = global.clock
        let staticKey = try sessionKey(raw: try global.directory.loadOrCreateSessionKey())
        let asset = try parseAddress(options.asset, option: "--asset")
        let amount = try units.parse(options.amount ?? "", of: asset)
        let (memo, expiresIn) = (options.memo, options.expiresIn)
        let publicKey = Array(staticKey.publicKey.rawRepresentation)
        let makeRequest = { () throws -> PaymentRequest in
            try wallet.issueRequest(
                amount: amount, asset: asset, memo: memo, lifetime: expiresIn,
                sessionKey: publicKey, now: clock.now())
        }
        var request = try makeRequest()
        try show(request)
        let bluetooth = try await BluetoothSession.open()
        let adapter = try await bluetooth.adapter(options.adapter)
        let quiet = json
        let payee = try NearbyPayee(
            bluetooth: bluetooth, adapter: adapter, staticKey: staticKey,
            offering: NearbyPayee.Offering(request),
            evidence: { (try? BluetoothEvidence.toSend(wallet)) ?? [] },
            onEvidence: { BluetoothEvidence.take($0, into: wallet, now: clock.now()) },
            onEvent: { event in
                switch event {
                case .connected: CrashPoint.receiveConnected.hit()
                case .offered: CrashPoint.receiveOffered.hit()
                default: break
                }
                guard !quiet else { return }
                switch event {
                case .ready(let adapter, let address):
                    say("ready: advertising on \(adapter) (\(address)); waiting for payers")
                case .connected(let link): say("payer connected (link \(hex(link)))")
                case .offered(let link): say("payment offered (link \(hex(link)))")
                case .linkEnded(let link): say("link \(hex(link)) ended")
                case .refusedSession(let link, let reason):
                    say("link \(hex(link)) refused: \(reason)")
                case .restarted:
                    say("bluetoothd restarted: service and advertisement registered again")
                case .registerAgainFailed(let attempt, let reason):
                    say(
                        "bluetoothd restarted: registering again failed (attempt \(attempt)): \(reason)"
                    )
                }
            })
        try await payee.start()
        let stop = SignalWatch([SIGINT, SIGTERM]) { Task { await payee.finish() } }
        defer { stop.cancel() }
        let once = options.once
        try await PaymentExchange(wallet: wallet, clock: clock).receive(
            from: CrashBeforeReply(source: payee), key: key, once: once
        ) { delivery in
            switch delivery {
            case .accepted(let received):
                report(received, units: units)
                guard !once, let next = try? makeRequest() else { return }
                request = next
                try? show(next)
                let offer = NearbyPayee.Offering(next)
                Task { try? await payee.offer(offer) }
            case .refused(let error):
                if !quiet { say("refused a payment: \(error)") }
            }
        }
        await payee.finish()
    }

    private func show(_ request: PaymentRequest) throws {
        let uri = TenderURI.encode(request)
        let matrix = try QREncoder.encode(Array(uri.utf8))
        if let path = options.codeOut {
            try FileIO.writeAtomically(PNG.encode(matrix.rasterize(scale: 8)), to: path)
        }
        guard !json else { return }
        say(matrix.terminalText(inverted: false))
        say(uri)
    }

    private func report(_ received: Wallet.Received, units: Denominations) {
        if json {
            try? printJSON([
                "requestId": received.requestID.hex, "amount": String(received.amount),
                "asset": received.asset.checksummed, "payer": received.payer.checksummed,
                "coins": received.credited.map(\.id.hex), "repeated": received.repeated,
            ])
        } else {
            let again = received.repeated ? " (already accepted; same receipt sent again)" : ""
            say(
                "Received \(units.format(received.amount, of: received.asset)) from \(received.payer) (request \(received.requestID.hex))\(again)"
            )
        }
    }
}

/// The payee's source with the crash point between accepting a payment and answering it
/// (the crash-safety scenarios; nothing in release builds).
private struct CrashBeforeReply<Source: PaymentSource>: PaymentSource {
    let source: Source
    func nextPayment() async throws(NodeError) -> [UInt8]? { try await source.nextPayment() }
    func reply(_ receipt: [UInt8]) async throws(NodeError) {
        CrashPoint.receiveAccepted.hit()
        try await source.reply(receipt)
    }
    func refuse(_ error: NodeError) async { await source.refuse(error) }
    func finish() async { await source.finish() }
}

private func hex(_ link: UInt32) -> String { String(link, radix: 16) }

/// Writes a line to standard output at once: a long-running command's output is read while it
/// runs (a terminal, a log, a supervisor waiting for "ready"), and `print` holds lines in a
/// buffer when stdout is not a terminal.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Runs `action` once when one of `signals` arrives (instead of the default of dying), so a
/// node can unregister from BlueZ before it exits.
final class SignalWatch {
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32], action: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }

    func cancel() { for source in sources { source.cancel() } }
}
