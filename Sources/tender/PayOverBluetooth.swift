import ArgumentParser
import BlueZ
import Bluetooth
import Foundation
import NodeKit
import Noise
import PaymentSession
import Secp256k1
import Tender

/// `tender pay --ble`: find the payee nearby, open a payment session, pay, record the receipt.
struct BluetoothPayment {
    let wallet: Wallet
    let clock: any WallClock
    let adapterName: String?
    let scanSeconds: Double
    /// The payee to pay (--to), when the payer has no request.
    let payee: Address?
    /// What the payer will pay (--amount), checked against the payee's request.
    let amount: Amount?
    /// The payee's scanned request (--request or --camera): IK when it has a session key.
    let request: PaymentRequest?
    let quiet: Bool

    func progress(_ text: String) { if !quiet { say(text) } }

    func run(key: PrivateKey) async throws -> PaymentExchange.Outcome {
        let bluetooth = try await BluetoothSession.open()
        let adapter = try await bluetooth.adapter(adapterName)
        try await adapter.requirePowered()
        progress("looking for the payee on \(adapter.name)…")
        let (connection, hello) = try await findPayee(adapter)
        defer { Task { await connection.close() } }
        let terms: PaymentRequest
        let payeeKey: NoisePublicKey?
        if let request, let raw = request.sessionKey {
            terms = request
            payeeKey = try NoisePublicKey(rawRepresentation: raw)
        } else {
            guard let hello else { throw NodeError(.io("the payee sent no request")) }
            terms = try check(hello)
            payeeKey = nil
        }
        let order = PaymentExchange.Order(
            payee: terms.payee, amount: terms.amount, asset: terms.asset, memo: terms.memo,
            requestID: terms.id, request: terms)
        let transport = NearbyPaymentTransport(
            connection: connection, payeeKey: payeeKey, evidence: try evidence())
        let exchange = PaymentExchange(wallet: wallet, clock: clock)
        do {
            let outcome = try await exchange.pay(
                order, key: key, via: transport, receiptTimeout: .seconds(30)
            ) { event in
                switch event {
                case .prepared: progress("payment prepared: \(terms.amount) to \(terms.payee)")
                case .handedOver: break
                case .sent: progress("sent")
                case .skipped(let why): progress("not this payment's receipt: \(why)")
                case .receipt: progress("receipt recorded")
                }
            }
            importEvidence(transport.payeeEvidence)
            return outcome
        } catch {
            // The link died with the payment out: in doubt until this payee answers again.
            if case .pending? = try? wallet.outgoingPayment(terms.id).state {
                try? wallet.linkLost(terms.id, now: clock.now())
                throw NodeError(
                    .io("\(error)"),
                    note:
                        "the payment is in doubt: pay the same request again near this payee (`tender pay --ble --request …`) to get its receipt"
                )
            }
            throw error
        }
    }

    /// The first payee that matches: the request's id prefix in its advertisement, or (with
    /// --to) the payee its hello names.
    private func findPayee(_ adapter: Adapter) async throws -> (PayerConnection, Hello?) {
        let reports = try await adapter.discover(
            service: TenderGATT.service, for: .seconds(scanSeconds))
        var tried: Set<String> = []
        for await nearby in reports {
            guard !tried.contains(nearby.address) else { continue }
            if let request {
                let tag = nearby.manufacturerData[TenderGATT.tagCompany].flatMap(TenderGATT.readTag)
                guard tag?.idPrefix == Array(request.id.bytes.prefix(4)) else { continue }
            }
            tried.insert(nearby.address)
            progress("found \(nearby.address) (\(nearby.rssi.map { "\($0) dBm" } ?? "RSSI ?"))")
            let connection = try await PayerConnection.connect(to: nearby.device)
            progress("connected")
            if let request, request.sessionKey != nil { return (connection, nil) }
            let hello = try await connection.hello()
            progress("session open")
            if let payee, (try? requestIn(hello).payee) != payee {
                await connection.close()
                continue
            }
            return (connection, hello)
        }
        throw NodeError(
            .missing("no matching payee found nearby in \(Int(scanSeconds)) s"),
            note: "is the payee's `tender receive --ble` running, and its adapter in range?")
    }

    private func requestIn(_ hello: Hello) throws -> PaymentRequest {
        guard case .request(let request) = try wallet.decode(hello.request).message else {
            throw NodeError(.io("the payee's hello holds no request"))
        }
        return request
    }

    /// The payee's request, checked against what the payer asked for.
    private func check(_ hello: Hello) throws -> PaymentRequest {
        let request = try requestIn(hello)
        importEvidence(hello.evidence)
        if let amount, amount != request.amount {
            throw NodeError(
                .usage("the payee asks for \(request.amount), not \(amount): nothing was paid"))
        }
        if let payee, payee != request.payee {
            throw NodeError(.usage("the payee nearby is \(request.payee), not \(payee)"))
        }
        do { try request.checkPayable(in: wallet.domain, now: clock.now()) } catch {
            throw NodeError(.rejected(error))
        }
        return request
    }

    private func evidence() throws -> [[UInt8]] {
        try BluetoothEvidence.toSend(wallet)
    }

    private func importEvidence(_ items: [[UInt8]]) {
        BluetoothEvidence.take(items, into: wallet, now: clock.now())
    }
}

/// Double-spend evidence both sides exchange at every session (the most recent, within the
/// session's limits); what comes in is checked by the wallet like any evidence file.
enum BluetoothEvidence {
    static func toSend(_ wallet: Wallet) throws -> [[UInt8]] {
        try wallet.evidence()
            .sorted { $0.foundAt > $1.foundAt }
            .map(\.envelope)
            .filter { $0.count <= SessionMessages.maxEvidenceBytes }
            .prefix(SessionMessages.maxEvidenceItems)
            .map { $0 }
    }

    static func take(_ items: [[UInt8]], into wallet: Wallet, now: UInt64) {
        for item in items { _ = try? wallet.importEvidence(item, now: now) }
    }
}
