import Secp256k1
import Tender
import WalletStore

/// One wallet: its address, its domain and its store. The operations the CLI (and later the
/// BLE and QR front ends) call; each state change goes through one store transaction.
public struct Wallet: Sendable {
    public let address: Address
    public let domain: Domain
    public let store: WalletStore
    public let limits: VerificationLimits

    public init(store: WalletStore, limits: VerificationLimits = .standard) throws {
        let identity = try store.identity()
        self.address = identity.address
        self.domain = identity.domain
        self.store = store
        self.limits = limits
    }

    // MARK: Paying

    /// Plans a payment, records it as `prepared` with its coins reserved (one transaction),
    /// and returns the envelope to hand over. Call `handedOver` once it has left the node.
    public func preparePayment(
        to payee: Address, amount: Amount, asset: Address, memo: String = "", requestID: Bytes32,
        key: PrivateKey, now: UInt64, minimumLifetime: UInt64 = NodeDefaults.minimumCoinLifetime
    ) throws -> (plan: PaymentPlan, envelope: [UInt8]) {
        let candidates = try store.candidateCoins(
            owner: address, asset: asset, amount: amount, now: now,
            minimumLifetime: minimumLifetime, limits: limits)
        let builder = PaymentBuilder(domain: domain, limits: limits)
        let planned = Result { () throws(ProtocolError) -> PaymentPlan in
            try builder.plan(
                requestID: requestID, payee: payee, amount: amount, asset: asset, memo: memo,
                from: candidates, key: key, now: now, minimumLifetime: minimumLifetime)
        }
        guard case .success(let plan) = planned else {
            guard case .failure(let error) = planned else { fatalError("unreachable") }
            if case .insufficientFunds(let requested, _) = error.kind {
                // The candidates are only what selection read; report the whole spendable sum.
                let spendable = try store.balances()[asset]?.spendable ?? 0
                throw NodeError(
                    .rejected(
                        ProtocolError(
                            .insufficientFunds(requested: requested, available: spendable))))
            }
            throw NodeError(.rejected(error))
        }
        let envelope = Envelope(domain: domain, message: .payment(plan.payment)).encoded()
        // What the payee will check, checked before a coin is reserved: a payment it must
        // refuse could never get a receipt, and a handed-over payment cannot be cancelled.
        do throws(ProtocolError) {
            _ = try Envelope.decode(envelope, expecting: domain, limits: limits)
            _ = try Verifier(domain: domain, limits: limits).verify(plan.payment.bundle, now: now)
        } catch {
            throw NodeError(
                .rejected(
                    ProtocolError(
                        .malformed(
                            "the payee would refuse this payment (\(error)); nothing was spent. A shorter memo, or a smaller amount (fewer coins), may help"
                        ))))
        }
        try store.preparePayment(plan, envelope: envelope, now: now)
        return (plan, envelope)
    }

    public func handedOver(_ requestID: Bytes32, now: UInt64) throws {
        try store.advance(payment: requestID, by: .handOver, now: now)
    }

    /// Cancels a payment that never left the node; its coins become spendable again.
    @discardableResult
    public func cancelPayment(_ requestID: Bytes32, now: UInt64) throws -> OutgoingPaymentState {
        try store.advance(payment: requestID, by: .cancel, now: now).state
    }

    /// The payment's bytes to send again. One transaction checks the state and makes a
    /// prepared payment pending: a cancelled one (coins released) is refused, and none can be
    /// cancelled after this.
    public func exportPayment(_ requestID: Bytes32, now: UInt64) throws -> [UInt8] {
        try store.advance(payment: requestID, by: .export, now: now).envelope
    }

    /// Verifies a receipt envelope against the payment it names and marks that payment spent
    /// (its change becomes spendable). Receiving the same receipt again changes nothing.
    /// With `requestID`, a receipt for any other payment is refused (a stale one on a screen).
    public func recordReceipt(
        _ bytes: [UInt8], for requestID: Bytes32? = nil, now: UInt64
    ) throws -> OutgoingPaymentRecord {
        let envelope = try decode(bytes)
        guard case .receipt(let signed) = envelope.message else {
            throw NodeError(.usage("expected a receipt, got a \(envelope.message.kind)"))
        }
        if let requestID, signed.receipt.requestID != requestID {
            throw NodeError(
                .usage("that receipt is for request \(signed.receipt.requestID.hex), not this one"))
        }
        guard let payment = try store.outgoingPayment(signed.receipt.requestID) else {
            throw NodeError(.store(WalletStoreError(.paymentNotFound(signed.receipt.requestID))))
        }
        do throws(ProtocolError) {
            try signed.verify(payee: payment.payee, in: domain)
            guard signed.receipt.paymentDigest == payment.digest else {
                throw ProtocolError(
                    .paymentMismatch(
                        "the receipt acknowledges payment digest \(signed.receipt.paymentDigest.short), this payment is \(payment.digest.short)"
                    ))
            }
        } catch { throw NodeError(.rejected(error)) }
        return try store.advance(
            payment: payment.requestID, by: .receipt, receipt: bytes,
            acknowledging: signed.receipt.paymentDigest, now: now)
    }

    // MARK: Receiving

    public struct Received: Sendable {
        public let requestID: Bytes32
        public let credited: [Coin]
        public let amount: Amount
        public let asset: Address
        /// The receipt envelope to return to the payer.
        public let receipt: [UInt8]
        /// True when this payment had already been accepted: the stored receipt is returned.
        public let repeated: Bool
    }

    // MARK: Requesting

    /// Records a request this wallet is about to show, so a payment naming it must meet its
    /// amount, asset and expiry.
    public func recordRequest(_ request: PaymentRequest, now: UInt64) throws {
        guard request.payee == address, request.domain == domain else {
            throw NodeError(.usage("the request is not for this wallet"))
        }
        try store.recordRequest(
            StoredRequest(
                id: request.id, asset: request.asset, amount: request.amount, memo: request.memo,
                expiry: request.expiry), now: now)
    }

    /// This wallet's own request with `id`, when it issued one.
    private func ownRequest(_ id: Bytes32) throws -> PaymentRequest? {
        guard let stored = try store.request(id) else { return nil }
        do {
            return try PaymentRequest(
                id: stored.id, payee: address, amount: stored.amount, asset: stored.asset,
                memo: stored.memo, expiry: stored.expiry, domain: domain)
        } catch {
            throw NodeError(.store(WalletStoreError(.corrupt("request \(id.short): \(error)"))))
        }
    }

    /// Verifies a payment envelope offline and, if every check passes, accepts it and signs
    /// the receipt (one transaction). The same payment again returns the same receipt; a
    /// double spend stores its evidence and is refused; any other rejection changes nothing.
    public func receive(_ bytes: [UInt8], key: PrivateKey, now: UInt64) throws -> Received {
        let envelope = try decode(bytes)
        guard case .payment(let payment) = envelope.message else {
            throw NodeError(.usage("expected a payment, got a \(envelope.message.kind)"))
        }
        guard Address(publicKey: key.publicKey) == address else {
            throw NodeError(.key("the key does not belong to this wallet \(address)"))
        }
        let verifier = Verifier(domain: domain, limits: limits)
        let allInputs = payment.bundle.transfers.flatMap(\.transfer.inputs)
        let seen = try store.seenSpends(of: allInputs)
        let trusted = try store.trustedIssuers()
        let policy = IssuerPolicy.trusted(trusted)
        let request = try ownRequest(payment.requestID)

        if let accepted = try store.incomingPayment(payment.requestID) {
            // A retry: same coins, same receipt; anything else for this request is refused.
            // Judged as of when it was accepted: a payer retrying after the coins expired
            // must still get its receipt (its change is released by it), and nothing changes.
            let checked = try check(now: now, trusted: trusted) { () throws(ProtocolError) in
                try verifier.check(
                    payment, payee: address, request: request, policy: policy,
                    now: accepted.receivedAt, seenSpends: seen)
            }
            do throws(ProtocolError) {
                _ = try decide(
                    requestID: payment.requestID, paymentDigest: checked.digest,
                    acceptedDigest: accepted.digest)
            } catch { throw NodeError(.rejected(error)) }
            return Received(
                requestID: payment.requestID, credited: checked.credited, amount: payment.amount,
                asset: payment.asset, receipt: accepted.receipt, repeated: true)
        }

        let held = try store.heldCoins(among: payment.coins)
        let checked = try check(now: now, trusted: trusted) { () throws(ProtocolError) in
            try verifier.check(
                payment, payee: address, request: request, policy: policy, now: now,
                seenSpends: seen, held: held)
        }
        let receipt = try SignedReceipt(
            signing: Receipt(
                requestID: payment.requestID, paymentDigest: checked.digest, time: now),
            with: key, in: domain)
        let receiptBytes = Envelope(domain: domain, message: .receipt(receipt)).encoded()
        do {
            try store.acceptPayment(checked, receipt: receiptBytes, now: now)
        } catch let error as WalletStoreError {
            throw NodeError(.store(error))
        }
        return Received(
            requestID: payment.requestID, credited: checked.credited, amount: payment.amount,
            asset: payment.asset, receipt: receiptBytes, repeated: false)
    }

    /// Runs a verification; a double spend's evidence is stored before the refusal propagates,
    /// when the coin's issuer is one this wallet trusts (its vault is where the evidence is
    /// used; any other issuer's is just bad input, which changes nothing).
    private func check(
        now: UInt64, trusted: some Collection<Address>,
        _ body: () throws(ProtocolError) -> CheckedPayment
    ) throws
        -> CheckedPayment
    {
        do { return try body() } catch {
            if case .doubleSpend(let evidence, let issuer) = error.kind, trusted.contains(issuer) {
                let bytes = Envelope(domain: domain, message: .evidence(evidence)).encoded()
                try store.recordEvidence(evidence, body: bytes, now: now)
            }
            throw NodeError(.rejected(error))
        }
    }

    /// Decodes an envelope for this wallet's domain.
    public func decode(_ bytes: [UInt8]) throws -> Envelope {
        do { return try Envelope.decode(bytes, expecting: domain, limits: limits) } catch {
            throw NodeError(.rejected(error))
        }
    }
}
