import ArgumentParser
import DevTools
import Foundation
import NodeHost
import NodeKit
import NodeRuntime
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

/// `tender receive --ble`: the payee's loop (`NearbyReceiver`), each request shown as a code
/// with the session key, what happens said as it happens.
struct BluetoothReceiver {
    let options: BluetoothReceiveOptions
    let global: GlobalOptions
    let json: Bool

    func run() async throws {
        let wallet = try global.openWallet()
        let units = try global.host.denominations(for: wallet)
        let key = try global.keys.walletKey()
        let clock = global.clock
        let asset = try parseAddress(options.asset, option: "--asset")
        let amount = try units.parse(options.amount ?? "", of: asset)
        let (memo, expiresIn) = (options.memo, options.expiresIn)
        let receiver = NearbyReceiver(
            wallet: wallet, clock: clock,
            sessionKey: try global.directory.loadOrCreateSessionKey(),
            adapterName: options.adapter, once: options.once
        ) { [self] sessionKey in
            let request = try wallet.issueRequest(
                amount: amount, asset: asset, memo: memo, lifetime: expiresIn,
                sessionKey: sessionKey, now: clock.now())
            try show(request)
            return request
        }
        var hooked = receiver
        hooked.beforeReply = { CrashPoint.receiveAccepted.hit() }
        let quiet = json
        try await hooked.run(key: key) { event in
            switch event {
            case .connected: CrashPoint.receiveConnected.hit()
            case .offered: CrashPoint.receiveOffered.hit()
            default: break
            }
            if case .accepted(let received) = event { return report(received, units: units) }
            guard !quiet, let line = event.line(units: units) else { return }
            say(line)
        }
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

extension NearbyReceiver.Event {
    /// What `tender receive --ble` says of it (a payment accepted is reported on its own),
    /// amounts in `units`.
    func line(units: Denominations) -> String? {
        switch self {
        case .ready(let adapter, let address):
            "ready: advertising on \(adapter) (\(address)); waiting for payers"
        case .connected(let link): "payer connected (link \(hex(link)))"
        case .offered(let link): "payment offered (link \(hex(link)))"
        case .linkEnded(let link): "link \(hex(link)) ended"
        case .refusedSession(let link, let reason): "link \(hex(link)) refused: \(reason)"
        case .restarted: "bluetoothd restarted: service and advertisement registered again"
        case .registerAgainFailed(let attempt, let reason):
            "bluetoothd restarted: registering again failed (attempt \(attempt)): \(reason)"
        case .refused(let error):
            "refused a payment: \(error.description(in: Failure.wording(units)))"
        case .nextRequestFailed(let reason):
            "no new request offered (\(reason)); the paid one is withdrawn: start again to be paid"
        case .accepted: nil
        }
    }
}

private func hex(_ link: UInt32) -> String { String(link, radix: 16) }

/// Writes a line to standard output at once: a long-running command's output is read while it
/// runs (a terminal, a log, a supervisor waiting for "ready"), and `print` holds lines in a
/// buffer when stdout is not a terminal.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
