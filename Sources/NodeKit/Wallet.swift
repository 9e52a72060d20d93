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

    /// Balance per asset at `now`: coins too close to expiry to pay with count as expiring.
    public func balances(now: UInt64) throws -> [Address: Balance] {
        try store.balances(now: now, minimumLifetime: limits.minimumCoinLifetime)
    }

    // MARK: Paying

    /// Plans a payment, checks it exactly as the payee will (the same decoding and the same
    /// `Verifier.check`, against `request` when the payer has it), records it as `prepared`
    /// with its coins reserved (one transaction), and returns the envelope to hand over. Call
    /// `handedOver` once it has left the node.
    public func preparePayment(
        to payee: Address, amount: Amount, asset: Address, memo: String = "", requestID: Bytes32,
        request: PaymentRequest? = nil, key: PrivateKey, now: UInt64
    ) throws -> (plan: PaymentPlan, envelope: [UInt8]) {
        let candidates = try store.candidateCoins(
            owner: address, asset: asset, amount: amount, now: now,
            minimumLifetime: limits.minimumCoinLifetime, limits: limits)
        let builder = PaymentBuilder(domain: domain, limits: limits)
        let plan: PaymentPlan
        do throws(ProtocolError) {
            plan = try builder.plan(
                requestID: requestID, payee: payee, amount: amount, asset: asset, memo: memo,
                from: candidates, key: key, now: now)
        } catch {
            if case .insufficientFunds(let requested, _, _, _, _) = error.kind {
                throw NodeError(.rejected(try insufficientFunds(requested, asset: asset, now: now)))
            }
            throw NodeError(.rejected(error))
        }
        let envelope = Envelope(domain: domain, message: .payment(plan.payment)).encoded()
        // The payee's own check, before a coin is reserved: a payment it must refuse could
        // never get a receipt, and a handed-over payment cannot be cancelled. The payee's
        // trusted issuers are its own business: every issuer passes here.
        do throws(ProtocolError) {
            guard case .payment(let decoded) = try decodeEnvelope(envelope).message else {
                throw ProtocolError(.malformed("the payment decodes as another kind"))
            }
            _ = try Verifier(domain: domain, limits: limits).check(
                decoded, payee: payee, request: request, policy: .anyIssuer, now: now)
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

    /// "Insufficient funds" with what the wallet holds and why it cannot spend it.
    private func insufficientFunds(
        _ requested: Amount, asset: Address, now: UInt64
    ) throws -> ProtocolError {
        let balance =
            try store.balances(now: now, minimumLifetime: limits.minimumCoinLifetime)[asset]
            ?? Balance()
        return ProtocolError(
            .insufficientFunds(
                requested: requested,
                available: balance.spendable, pending: balance.pending + balance.inDoubt,
                expiring: balance.expiring, expired: balance.expired))
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
            throw NodeError(.rejected(ProtocolError(.unknownRequest(signed.receipt.requestID))))
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

    // MARK: Evidence

    /// Takes double-spend evidence from a peer or a file: checked on decoding (two transfers
    /// of one coin signed by one owner), kept when it concerns a coin this wallet has met
    /// (any other would let anyone grow the store). Returns the evidence.
    @discardableResult
    public func importEvidence(_ bytes: [UInt8], now: UInt64) throws -> DoubleSpendEvidence {
        let envelope = try decode(bytes)
        guard case .evidence(let evidence) = envelope.message else {
            throw NodeError(
                .usage("expected double-spend evidence, got a \(envelope.message.kind)"))
        }
        guard try store.hasSeen(coin: evidence.coin) else {
            throw NodeError(
                .rejected(
                    ProtocolError(
                        .invalidEvidence(
                            "it concerns coin \(evidence.coin.short), which this wallet has never seen"
                        ))))
        }
        try store.recordEvidence(evidence, body: bytes, now: now)
        return evidence
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
        do { return try decodeEnvelope(bytes) } catch { throw NodeError(.rejected(error)) }
    }

    private func decodeEnvelope(_ bytes: [UInt8]) throws(ProtocolError) -> Envelope {
        try Envelope.decode(bytes, expecting: domain, limits: limits)
    }
}
