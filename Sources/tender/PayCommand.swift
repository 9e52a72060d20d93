import ArgumentParser
import NodeKit
import Tender

struct PayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pay",
        abstract: "Pay an address offline: reserve coins, sign transfers, write the payment file.",
        discussion: """
            The payment is recorded (coins reserved) before the file is written. If the file is \
            lost, `tender payments export REQUEST-ID --out FILE` writes the same payment again. \
            The change becomes spendable when the payee's receipt is recorded with `tender receipt`.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Payee address.") var to: String
    @Option(help: "Amount in the asset's base unit.") var amount: String
    @Option(help: "Asset (the zero address is the native coin).")
    var asset: String = NodeDefaults.asset.checksummed
    @Option(help: "A note for the payee (at most 140 bytes).") var memo = ""
    @Option(
        name: .customLong("request-id"), help: "The payee's request id (hex); random if omitted.")
    var requestID: String?
    @Option(help: "File to write the payment to.") var out: String

    func run() throws {
        try guarded {
            let payee = try parseAddress(to, option: "--to")
            let value = try parseAmount(amount)
            let assetAddress = try parseAddress(asset, option: "--asset")
            var generator = SystemRandomNumberGenerator()
            let id: Bytes32
            if let requestID {
                do { id = try Bytes32(hex: requestID) } catch {
                    throw ValidationError("--request-id: \(error)")
                }
            } else {
                id = .random(using: &generator)
            }
            let wallet = try global.openWallet()
            let key = try global.keys.walletKey()
            let now = global.clock.now()
            let (plan, envelope) = try wallet.preparePayment(
                to: payee, amount: value, asset: assetAddress, memo: memo, requestID: id, key: key,
                now: now)
            CrashPoint.payPrepared.hit()
            // Marked handed over before the file exists: a payment that may be on disk (and so
            // may reach the payee) must never be cancellable. A crash before the write leaves a
            // pending payment that `payments export` writes again, byte for byte.
            try wallet.handedOver(id, now: now)
            CrashPoint.payHandedOver.hit()
            try FileIO.writeAtomically(envelope, to: out)
            if output.json {
                try printJSON([
                    "requestId": id.hex, "payee": payee.checksummed, "amount": String(value),
                    "asset": assetAddress.checksummed, "file": out, "state": "pending",
                    "inputs": plan.spent.map(\.hex),
                    "change": plan.change.map { String($0.coin.amount) },
                    "paymentDigest": plan.digest.hex,
                ])
            } else {
                print("Paid \(value) to \(payee): \(out)")
                print("Request \(id.hex) is pending until the payee's receipt is recorded.")
            }
        }
    }
}

struct ReceiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Verify a payment file offline, accept it, and write the signed receipt.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The payment file.") var file: String
    @Option(name: .customLong("receipt-out"), help: "Where to write the receipt for the payer.")
    var receiptOut: String?

    func run() throws {
        try guarded {
            let bytes = try FileIO.read(file, limit: Envelope.maxBytes)
            let wallet = try global.openWallet()
            let key = try global.keys.walletKey()
            let received = try wallet.receive(bytes, key: key, now: global.clock.now())
            CrashPoint.receiveAccepted.hit()
            if let receiptOut { try FileIO.writeAtomically(received.receipt, to: receiptOut) }
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
            let record = try global.openWallet().recordReceipt(bytes, now: global.clock.now())
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
