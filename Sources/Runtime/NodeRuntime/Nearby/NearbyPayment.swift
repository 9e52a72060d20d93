import BlueZ
import Bluetooth
import NodeKit
import Noise
import PaymentSession
import Secp256k1
import Tender

/// A payment to a payee nearby (`tender pay --ble`): the payee found (by its request's tag,
/// or by the address its hello names), a payment session opened, earlier payments to it that
/// may have landed settled first (exactly once, Docs/PROTOCOL.md §10.4), then the payment,
/// its receipt recorded.
public struct NearbyPayment: Sendable {
    public let wallet: Wallet
    public let clock: any WallClock
    public let adapterName: String?
    public let scanSeconds: Double
    /// The payee to pay, when the payer has no request.
    public let payee: Address?
    /// What the payer will pay, checked against the payee's request.
    public let amount: Amount?
    /// The payee's scanned request: IK when it has a session key.
    public let request: PaymentRequest?
    public let channel: Channel
    /// How long to wait for each receipt.
    public var receiptTimeout: Duration = .seconds(30)

    /// How the payer reaches the payee: GATT, the payee's LE L2CAP channel when it offers
    /// one, or (auto) the channel for a payment of more than `l2capFromCoins` coins, where its
    /// rate pays for its set-up.
    public enum Channel: String, Sendable, CaseIterable {
        case auto, gatt, l2cap

        public static let l2capFromCoins = 8
    }

    /// What the payment does, as it happens.
    public enum Progress: Sendable {
        case looking(adapter: String)
        case found(address: String, rssi: Int16?)
        case connected(overL2CAP: Bool)
        case sessionOpen
        /// An earlier payment to this payee is sent again.
        case resending(OutgoingPaymentRecord)
        case earlierReceiptRecorded
        case earlierRefused(NodeError)
        /// The new payment's own steps (`PaymentExchange.Event`), for `terms`.
        case paying(PaymentExchange.Event, terms: PaymentRequest)
    }

    /// What it did: the payment of this run (nil when an earlier payment to the same payee
    /// turned out to have landed, so nothing new was paid), the earlier ones it settled
    /// first, and what went over the air.
    public struct Result: Sendable {
        public var paid: OutgoingPaymentRecord?
        public var settled: [Settled] = []
        public var traffic: PayerConnection.Traffic
        /// From the start of discovery to the last answer.
        public var seconds: Double
        /// Whether the session ran over the payee's L2CAP channel (else GATT).
        public var overL2CAP = false
    }

    /// An earlier payment sent again: its receipt recorded, or the payee's refusal.
    public enum Settled: Sendable {
        case receipt(OutgoingPaymentRecord)
        case refused(OutgoingPaymentRecord, NodeError)

        public var record: OutgoingPaymentRecord {
            switch self {
            case .receipt(let record), .refused(let record, _): record
            }
        }
    }

    public init(
        wallet: Wallet, clock: any WallClock, adapterName: String?, scanSeconds: Double,
        payee: Address?, amount: Amount?, request: PaymentRequest?, channel: Channel
    ) {
        self.wallet = wallet
        self.clock = clock
        self.adapterName = adapterName
        self.scanSeconds = scanSeconds
        self.payee = payee
        self.amount = amount
        self.request = request
        self.channel = channel
    }

    public func run(
        key: PrivateKey, progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws -> Result {
        try await reportingBluetooth {
            let started = ContinuousClock.now
            let bluetooth = try await BluetoothSession.open()
            let adapter = try await bluetooth.adapter(adapterName)
            try await adapter.requirePowered()
            progress(.looking(adapter: adapter.name))
            let (connection, hello) = try await findPayee(adapter, progress: progress)
            // Closed before returning, not in a detached task: a connection the process leaves
            // behind stays up in BlueZ and hides the payee from this payer's next discovery.
            do {
                let result = try await pay(
                    over: connection, hello: hello, key: key, since: started, progress: progress)
                await connection.close()
                return result
            } catch {
                await connection.close()
                throw error
            }
        }
    }

    private func pay(
        over connection: PayerConnection, hello: Hello?, key: PrivateKey,
        since started: ContinuousClock.Instant, progress: @escaping @Sendable (Progress) -> Void
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
        let exchange = PaymentExchange(wallet: wallet, clock: clock)
        func transport() throws -> NearbyPaymentTransport {
            NearbyPaymentTransport(
                connection: connection, payeeKey: payeeKey,
                evidence: try NearbyEvidence.toSend(wallet))
        }
        var result = Result(traffic: await connection.traffic, seconds: 0)
        // Exactly once: what may already have reached this payee is settled before anything new.
        for earlier in try exchange.unresolvedPayments(to: terms.payee) {
            let settled = try await resend(
                earlier, via: try transport(), exchange, progress: progress)
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
                order, key: key, via: nearby, receiptTimeout: receiptTimeout
            ) { event in
                progress(.paying(event, terms: terms))
            }
            importEvidence(nearby.payeeEvidence)
            result.paid = outcome.record
        } catch  where nearby.refusal != nil {
            throw error  // an answer: the payee has the payment and said no
        } catch {
            throw InDoubt.mark(terms.id, in: wallet, now: clock.now(), after: error)
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
        _ exchange: PaymentExchange, progress: @Sendable (Progress) -> Void
    ) async throws -> Settled {
        progress(.resending(earlier))
        do throws(NodeError) {
            let record = try await exchange.resend(
                earlier.requestID, via: transport, receiptTimeout: receiptTimeout)
            importEvidence(transport.payeeEvidence)
            guard record.state == .spent else {
                throw NodeError(
                    .io("the payee sent no receipt for request \(earlier.requestID.hex)"))
            }
            progress(.earlierReceiptRecorded)
            return .receipt(record)
        } catch  where transport.refusal != nil {
            progress(.earlierRefused(error))
            return .refused(earlier, error)
        } catch {
            throw InDoubt.mark(earlier.requestID, in: wallet, now: clock.now(), after: error)
        }
    }

    func requestIn(_ hello: Hello) throws -> PaymentRequest {
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
            throw AmountMismatch(asked: request.amount, offered: amount, asset: request.asset)
        }
        if let payee, payee != request.payee {
            throw NodeError(.usage("the payee nearby is \(request.payee), not \(payee)"))
        }
        do { try request.checkPayable(in: wallet.domain, now: clock.now()) } catch {
            throw NodeError(.rejected(error))
        }
        return request
    }

    private func importEvidence(_ items: [[UInt8]]) {
        NearbyEvidence.take(items, into: wallet, now: clock.now())
    }
}
