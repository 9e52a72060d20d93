import Secp256k1
import Tender

/// The payment exchange, the same for every transport: make a payment, hand it over, await the
/// receipt and record it (payer); take a payment, accept it and answer with the receipt
/// (payee). Exactly once (PROTOCOL.md §5): the payment is recorded before anything leaves;
/// a transport that proves nothing left gives it back; a lost receipt leaves it pending, to
/// be settled by the next receipt (`payments export` sends the same bytes again).
public struct PaymentExchange: Sendable {
    public let wallet: Wallet
    public let clock: any WallClock

    public init(wallet: Wallet, clock: any WallClock) {
        self.wallet = wallet
        self.clock = clock
    }

    /// What the payer asks for.
    public struct Order: Sendable {
        public var payee: Address
        public var amount: Amount
        public var asset: Address
        public var memo: String
        public var requestID: Bytes32
        /// The payee's request, when the payer has it (a scanned code): checked before paying.
        public var request: PaymentRequest?

        public init(
            payee: Address, amount: Amount, asset: Address, memo: String = "",
            requestID: Bytes32, request: PaymentRequest? = nil
        ) {
            self.payee = payee
            self.amount = amount
            self.asset = asset
            self.memo = memo
            self.requestID = requestID
            self.request = request
        }
    }

    /// Progress, for a front end to show.
    public enum Event: Sendable {
        case prepared(Wallet.PreparedPayment)
        case handedOver
        case sent
        /// A code or message that is not this payment's receipt, and why.
        case skipped(String)
        case receipt(OutgoingPaymentRecord)
    }

    public struct Outcome: Sendable {
        public let prepared: Wallet.PreparedPayment
        /// `spent` with the receipt recorded, else `pending` (no receipt within the timeout,
        /// or a medium that brings none).
        public let record: OutgoingPaymentRecord
    }

    /// Pays `order` over `transport`, waiting up to `receiptTimeout` for the receipt.
    public func pay(
        _ order: Order, key: PrivateKey, via transport: some PaymentTransport,
        receiptTimeout: Duration, events: @escaping @Sendable (Event) -> Void = { _ in }
    ) async throws(NodeError) -> Outcome {
        let prepared = try wallet.preparePayment(
            to: order.payee, amount: order.amount, asset: order.asset, memo: order.memo,
            requestID: order.requestID, request: order.request, key: key, now: clock.now())
        let id = prepared.requestID
        events(.prepared(prepared))
        do { try await transport.prepare(prepared.envelope) } catch {
            await transport.finish()
            try giveBack(id, because: error)
        }
        try wallet.handedOver(id, now: clock.now())
        events(.handedOver)
        do { try await transport.send(prepared.envelope) } catch {
            await transport.finish()
            switch error {
            case .nothingSent(let cause): try giveBack(id, because: cause)
            case .mayHaveSent(let cause): throw cause
            }
        }
        events(.sent)
        let record = try await awaitReceipt(
            for: id, from: transport, timeout: receiptTimeout, events: events)
        await transport.finish()
        return Outcome(prepared: prepared, record: record)
    }

    /// Cancels a payment nothing of which left, then reports why.
    private func giveBack(_ id: Bytes32, because cause: NodeError) throws(NodeError) -> Never {
        do { try wallet.notSent(id, now: clock.now()) } catch {
            throw NodeError(
                .io("\(cause); the payment could not be given back either (\(error))"))
        }
        throw cause.noting(
            "nothing was sent: the payment is cancelled and its coins are spendable again")
    }

    /// Reads candidates until one is this payment's receipt (recorded: spent), the medium
    /// has no more, or `timeout` passes (still pending).
    func awaitReceipt(
        for id: Bytes32, from transport: some PaymentTransport, timeout: Duration,
        events: @escaping @Sendable (Event) -> Void
    ) async throws(NodeError) -> OutgoingPaymentRecord {
        let wallet = self.wallet
        let clock = self.clock
        let result = await withTaskGroup(of: Result<OutgoingPaymentRecord?, NodeError>.self) {
            group in
            group.addTask {
                do throws(NodeError) {
                    while let bytes = try await transport.nextReceipt() {
                        do {
                            return .success(
                                try wallet.recordReceipt(bytes, for: id, now: clock.now()))
                        } catch { events(.skipped("\(error)")) }
                    }
                    return .success(nil)
                } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .success(nil)
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        switch result {
        case .success(let record?):
            events(.receipt(record))
            return record
        case .success(nil): return try wallet.outgoingPayment(id)
        case .failure(let error): throw error
        }
    }

    /// What the payee did with one payment.
    public enum Delivery: Sendable {
        case accepted(Wallet.Received)
        /// Refused (the error names why); nothing was accepted.
        case refused(NodeError)
    }

    /// Takes payments from `source` until it is done (or after the first with `once`),
    /// accepting each valid one and replying with its receipt. A refused payment is reported
    /// and the source served on: one bad payer does not stop the stall.
    public func receive(
        from source: some PaymentSource, key: PrivateKey, once: Bool,
        events: (Delivery) async -> Void
    ) async throws(NodeError) {
        do throws(NodeError) {
            while let bytes = try await source.nextPayment() {
                do throws(NodeError) {
                    let received = try wallet.receive(bytes, key: key, now: clock.now())
                    try await source.reply(received.receipt)
                    await events(.accepted(received))
                    if once { break }
                } catch {
                    await source.refuse(error)
                    await events(.refused(error))
                    if once { throw error }
                }
            }
        } catch {
            await source.finish()
            throw error
        }
        await source.finish()
    }
}
