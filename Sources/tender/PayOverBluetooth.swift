import ArgumentParser
import BlueZ
import Bluetooth
import DevTools
import Foundation
import NodeKit
import Noise
import PaymentSession
import Secp256k1
import Tender
import WalletStore

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
    let channel: BluetoothChannelChoice
    /// How amounts read in what it says.
    let units: Denominations
    let quiet: Bool

    func progress(_ text: String) { if !quiet { say(text) } }

    /// What one `pay --ble` did: the payment of this command (nil when an earlier payment to
    /// the same payee turned out to have landed, so nothing new was paid), the earlier ones it
    /// settled first, and what went over the air.
    struct Result {
        var paid: OutgoingPaymentRecord?
        var settled: [Settled] = []
        var traffic: PayerConnection.Traffic
        /// From the start of discovery to the last answer.
        var seconds: Double
        /// Whether the session ran over the payee's L2CAP channel (else GATT).
        var overL2CAP = false
    }

    /// An earlier payment sent again: its receipt recorded, or the payee's refusal.
    enum Settled {
        case receipt(OutgoingPaymentRecord)
        case refused(OutgoingPaymentRecord, NodeError)
    }

    func run(key: PrivateKey) async throws -> Result {
        let started = ContinuousClock.now
        let bluetooth = try await BluetoothSession.open()
        let adapter = try await bluetooth.adapter(adapterName)
        try await adapter.requirePowered()
        progress("looking for the payee on \(adapter.name)…")
        let (connection, hello) = try await findPayee(adapter)
        // Closed before returning, not in a detached task: a connection the process leaves
        // behind stays up in BlueZ and hides the payee from this payer's next discovery.
        do {
            let result = try await pay(over: connection, hello: hello, key: key, since: started)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    private func pay(
        over connection: PayerConnection, hello: Hello?, key: PrivateKey,
        since started: ContinuousClock.Instant
    ) async throws -> Result {
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
        let exchange = PaymentExchange(wallet: wallet, clock: clock, units: units)
        func transport() throws -> NearbyPaymentTransport {
            NearbyPaymentTransport(
                connection: connection, payeeKey: payeeKey, evidence: try evidence())
        }
        var result = Result(traffic: await connection.traffic, seconds: 0)
        // Exactly once: what may already have reached this payee is settled before anything new.
        for earlier in try exchange.unresolvedPayments(to: terms.payee) {
            let settled = try await resend(earlier, via: try transport(), exchange)
            result.settled.append(settled)
            guard case .receipt(let record) = settled else { continue }
            if record.requestID == terms.id {
                result.paid = record
                return await finished(result, connection, started)
            }
        }
        if result.settled.contains(where: { if case .receipt = $0 { true } else { false } }) {
            // An earlier payment landed after all: paying again now would likely pay twice.
            return await finished(result, connection, started)
        }
        let order = PaymentExchange.Order(
            payee: terms.payee, amount: terms.amount, asset: terms.asset, memo: terms.memo,
            requestID: terms.id, request: terms)
        let nearby = try transport()
        do {
            let outcome = try await exchange.pay(
                order, key: key, via: nearby, receiptTimeout: .seconds(30)
            ) { event in
                switch event {
                case .prepared:
                    progress(
                        "payment prepared: \(units.format(terms.amount, of: terms.asset)) to \(terms.payee)"
                    )
                    CrashPoint.payPrepared.hit()
                case .handedOver: CrashPoint.payHandedOver.hit()
                case .sent: progress("sent")
                case .skipped(let why): progress("not this payment's receipt: \(why)")
                case .receipt: progress("receipt recorded")
                }
            }
            importEvidence(nearby.payeeEvidence)
            result.paid = outcome.record
        } catch  where nearby.refusal != nil {
            throw error  // an answer: the payee has the payment and said no
        } catch {
            try markInDoubt(terms.id, after: error)
        }
        return await finished(result, connection, started)
    }

    private func finished(
        _ result: Result, _ connection: PayerConnection, _ started: ContinuousClock.Instant
    ) async -> Result {
        var result = result
        result.traffic = await connection.traffic
        result.overL2CAP = connection.overL2CAP
        let elapsed = ContinuousClock.now - started
        result.seconds =
            Double(elapsed.components.seconds)
            + Double(elapsed.components.attoseconds) / 1e18
        return result
    }

    /// Sends an earlier payment again over this session. A payee's refusal is an answer (the
    /// payment is settled as far as the air can settle it); a dead link leaves it in doubt.
    private func resend(
        _ earlier: OutgoingPaymentRecord, via transport: NearbyPaymentTransport,
        _ exchange: PaymentExchange
    ) async throws -> Settled {
        progress(
            "an earlier payment of \(units.format(earlier.amount, of: earlier.asset)) to this payee is \(earlier.state.rawValue) (request \(earlier.requestID.hex)): sending it again"
        )
        do throws(NodeError) {
            let record = try await exchange.resend(
                earlier.requestID, via: transport, receiptTimeout: .seconds(30))
            importEvidence(transport.payeeEvidence)
            guard record.state == .spent else {
                throw NodeError(
                    .io("the payee sent no receipt for request \(earlier.requestID.hex)"))
            }
            progress("receipt recorded for the earlier payment")
            return .receipt(record)
        } catch  where transport.refusal != nil {
            progress("the payee refused the earlier payment: \(error)")
            return .refused(earlier, error)
        } catch {
            try markInDoubt(earlier.requestID, after: error)
        }
    }

    /// The link died with the payment out: in doubt until this payee answers again.
    private func markInDoubt(_ id: Bytes32, after error: NodeError) throws -> Never {
        let state = try? wallet.outgoingPayment(id).state
        guard state == .pending || state == .inDoubt else { throw error }
        try? wallet.linkLost(id, now: clock.now())
        throw error.noting(
            "the payment is in doubt: run `tender pay --ble` again near this payee; it sends the same payment again and records the receipt"
        )
    }

    /// The first payee that matches: the request's id prefix in its advertisement, or (with
    /// --to) the payee its hello names.
    private func findPayee(_ adapter: Adapter) async throws -> (PayerConnection, Hello?) {
        let deadline = ContinuousClock.now + .seconds(scanSeconds)
        var tried: Set<String> = []
        while case let remaining = deadline - ContinuousClock.now, remaining > .zero {
            guard let nearby = try await candidate(on: adapter, excluding: tried, within: remaining)
            else { break }
            tried.insert(nearby.address)
            progress("found \(nearby.address) (\(nearby.rssi.map { "\($0) dBm" } ?? "RSSI ?"))")
            let connection = try await PayerConnection.connect(
                to: nearby.device, channel: try channelToAsk())
            progress(connection.overL2CAP ? "connected (L2CAP channel)" : "connected")
            if let request, request.sessionKey != nil { return (connection, nil) }
            let hello: Hello
            do { hello = try await connection.hello() } catch {
                await connection.close()
                throw error
            }
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

    /// GATT, or the payee's L2CAP channel when it offers one: asked for, or (auto) for a
    /// payment of more than `l2capFromCoins` coins, where the channel's rate pays for its set-up.
    private func channelToAsk() throws -> PayerConnection.Channel {
        switch channel {
        case .gatt: return .gatt
        case .l2cap: return .l2capIfOffered
        case .auto:
            guard
                let terms = request.map({ ($0.amount, $0.asset) })
                    ?? amount.map({ ($0, Address.zero) })
            else { return .gatt }
            let coins = try wallet.coinsToPay(terms.0, asset: terms.1, now: clock.now())
            return coins > BluetoothChannelChoice.l2capFromCoins ? .l2capIfOffered : .gatt
        }
    }

    /// The next device that may be the payee, with discovery stopped (BlueZ aborts an LE
    /// connection attempt when discovery restarts under it).
    private func candidate(
        on adapter: Adapter, excluding tried: Set<String>, within duration: Duration
    ) async throws -> NearbyDevice? {
        let reports = try await adapter.discover(service: TenderGATT.service, for: duration)
        for await nearby in reports where !tried.contains(nearby.address) {
            if let request {
                let tag = nearby.manufacturerData[TenderGATT.tagCompany].flatMap(TenderGATT.readTag)
                guard tag?.idPrefix == Array(request.id.bytes.prefix(4)) else { continue }
            }
            await adapter.stopDiscovery()
            return nearby
        }
        return nil
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
                .usage(
                    "the payee asks for \(units.format(request.amount, of: request.asset)), not \(units.format(amount, of: request.asset)): nothing was paid"
                ))
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

extension BluetoothPayment.Result {
    func report(json: Bool, units: Denominations) throws {
        if json {
            var fields: [String: Any] = [
                "settled": settled.map(\.json),
                "air": [
                    "bytesWritten": traffic.bytesWritten, "bytesRead": traffic.bytesRead,
                    "roundTrips": traffic.roundTrips, "seconds": seconds,
                    "channel": overL2CAP ? "l2cap" : "gatt",
                ],
            ]
            if let paid { fields.merge(paid.summary) { $1 } }
            try printJSON(fields)
            return
        }
        for earlier in settled where earlier.record.requestID != paid?.requestID {
            switch earlier {
            case .receipt(let record):
                print(
                    "Earlier payment of \(units.format(record.amount, of: record.asset)) to \(record.payee) (request \(record.requestID.hex)): receipt recorded."
                )
            case .refused(let record, let error):
                print(
                    "Earlier payment of \(units.format(record.amount, of: record.asset)) to \(record.payee) (request \(record.requestID.hex)): refused by the payee: \(error)"
                )
            }
        }
        if let paid {
            let amount = units.format(paid.amount, of: paid.asset)
            print(
                paid.state == .spent
                    ? "Paid \(amount) to \(paid.payee): receipt recorded."
                    : "Paid \(amount) to \(paid.payee): no receipt yet (pending).")
        } else {
            print(
                "Nothing new paid: an earlier payment to this payee had landed. Run again to pay its current request."
            )
        }
        print(
            "On the air (\(overL2CAP ? "L2CAP channel" : "GATT")): "
                + String(
                    format: "%d B written, %d B read, %d round trips, %.1f s from discovery",
                    traffic.bytesWritten, traffic.bytesRead, traffic.roundTrips, seconds))
    }
}

extension BluetoothPayment.Settled {
    var record: OutgoingPaymentRecord {
        switch self {
        case .receipt(let record), .refused(let record, _): record
        }
    }

    var json: [String: Any] {
        switch self {
        case .receipt(let record): return record.summary
        case .refused(let record, let error):
            return record.summary.merging(["refused": "\(error)"]) { $1 }
        }
    }
}

extension OutgoingPaymentRecord {
    var summary: [String: Any] {
        [
            "requestId": requestID.hex, "payee": payee.checksummed, "amount": String(amount),
            "asset": asset.checksummed, "state": state.rawValue, "paymentDigest": digest.hex,
        ]
    }
}

/// How a payer reaches a payee nearby (`pay --ble --channel`).
enum BluetoothChannelChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, gatt, l2cap

    /// Auto takes the L2CAP channel for payments of more coins than this.
    static let l2capFromCoins = 8
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
