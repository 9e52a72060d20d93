import Secp256k1
import Tender
import WalletStore

extension Wallet {
    /// A payment recorded and ready to hand over.
    public struct PreparedPayment: Sendable {
        public let plan: PaymentPlan
        /// The envelope to hand to the payee (the same bytes on every export).
        public let envelope: [UInt8]
        public var requestID: Bytes32 { plan.payment.requestID }
    }

    /// Plans a payment, checks it exactly as the payee will (the same decoding and the same
    /// `Verifier.check`, against `request` when the payer has it), and records it as
    /// `prepared` with its coins reserved (one transaction). Hand it over with `handedOver`.
    /// A payment the node makes on its own passes its `spendingLimits`, checked and counted
    /// in that same transaction.
    public func preparePayment(
        to payee: Address, amount: Amount, asset: Address, memo: String = "", requestID: Bytes32,
        request: PaymentRequest? = nil, key: PrivateKey,
        within spendingLimits: [SpendingLimit]? = nil,
        now: UInt64
    ) throws(NodeError) -> PreparedPayment {
        guard Address(publicKey: key.publicKey) == address else {
            throw NodeError(.key("the key does not belong to this wallet \(address)"))
        }
        guard payee != .zero else {
            throw NodeError(.usage("the zero address cannot be paid: it belongs to no one"))
        }
        // A request this wallet paid already (not cancelled: that one may be paid afresh) is
        // said as such, whatever the coins would say now (the transaction that records a
        // payment refuses a second one all the same).
        if let earlier = try? outgoingPayment(requestID), earlier.state != .cancelled {
            throw NodeError(.exists("this wallet already paid request \(requestID.hex)"))
        }
        // Over its limits, a payment is refused as such, whatever the coins would say
        // (none spendable now, or some reserved by a payment left prepared).
        if let spendingLimits,
            let refusal = try storing({
                try store.spendingRefusal(
                    payee: payee, asset: asset, amount: amount, under: spendingLimits, now: now)
            })
        {
            throw NodeError(.overLimit(refusal))
        }
        // Coins are chosen in a read and reserved in the write that records the payment:
        // another payment may take a chosen coin in between, or hand its change over between
        // the read that found no coin and the one that says why. Choosing again is then all
        // it takes (a few times: each try sees what the others reserved).
        var attempt = 0
        while true {
            let planned = try plan(
                to: payee, amount: amount, asset: asset, memo: memo, requestID: requestID,
                request: request, key: key, now: now)
            guard case .planned(let plan, let envelope) = planned else {
                guard attempt < 3 else {
                    throw NodeError(
                        .busy(
                            "the coins kept changing while this payment chose them (other payments being made now); try again"
                        ))
                }
                attempt += 1
                continue
            }
            do {
                try store.preparePayment(plan, envelope: envelope, within: spendingLimits, now: now)
                return PreparedPayment(plan: plan, envelope: envelope)
            } catch let error as WalletStoreError where error.isCoinTaken && attempt < 3 {
                attempt += 1
            } catch {
                try storing { throw error }
            }
        }
    }

    /// A plan, or none because coins came free while they were being chosen.
    private enum Planned {
        case planned(PaymentPlan, [UInt8])
        case coinsChanged
    }

    /// The payment signed over coins chosen now, checked as the payee will check it.
    private func plan(
        to payee: Address, amount: Amount, asset: Address, memo: String, requestID: Bytes32,
        request: PaymentRequest?, key: PrivateKey, now: UInt64
    ) throws(NodeError) -> Planned {
        let candidates = try storing {
            try store.candidateCoins(
                owner: address, asset: asset, amount: amount, now: now,
                minimumLifetime: limits.minimumCoinLifetime, limits: limits)
        }
        let builder = PaymentBuilder(domain: domain, limits: limits)
        let plan: PaymentPlan
        do throws(ProtocolError) {
            plan = try builder.plan(
                requestID: requestID, payee: payee, amount: amount, asset: asset, memo: memo,
                from: candidates, key: key, now: now)
        } catch {
            if case .insufficientFunds(_, let requested, _, _, _, _, _) = error.kind {
                guard let why = try cannotPay(requested, asset: asset, now: now) else {
                    return .coinsChanged
                }
                throw why
            }
            throw NodeError(.rejected(error))
        }
        let envelope = Envelope(domain: domain, message: .payment(plan.payment)).encoded()
        // The payee's own check, before a coin is reserved: a payment it must refuse could
        // never get a receipt. Whom the payee trusts is its business: every issuer passes here.
        do throws(ProtocolError) {
            guard case .payment(let decoded) = try decodeEnvelope(envelope).message else {
                throw ProtocolError(.malformed("the payment decodes as another kind"))
            }
            _ = try Verifier(domain: domain, limits: limits).check(
                decoded, payee: payee, request: request, policy: .anyIssuer, now: now)
        } catch {
            throw .rejected(
                .malformed(
                    "the payee would refuse this payment (\(error)); nothing was spent. A shorter memo, or a smaller amount (fewer coins), may help"
                ))
        }
        return .planned(plan, envelope)
    }

    /// What counts against each spending limit now.
    public func spendingUse(
        _ spendingLimits: [SpendingLimit], now: UInt64
    ) throws(NodeError) -> [SpendingLimitUse] {
        try storing { try store.spendingUse(spendingLimits, now: now) }
    }

    /// How many of this wallet's coins paying `amount` of `asset` would take now: the coins
    /// `preparePayment` would choose among (0 when the wallet cannot pay it).
    public func coinsToPay(_ amount: Amount, asset: Address, now: UInt64) throws(NodeError) -> Int {
        try storing {
            try store.candidateCoins(
                owner: address, asset: asset, amount: amount, now: now,
                minimumLifetime: limits.minimumCoinLifetime, limits: limits)
        }.count
    }

    /// Why the wallet cannot pay `requested` now, from the coins it could take and its
    /// balance: busy when enough coins are only reserved by a payment not yet handed over
    /// (another command making one right now, most likely), else "insufficient funds" with
    /// what it holds and why; nil when the coins it could choose now cover it (another
    /// payment's change came free since the coins were chosen: choose again).
    private func cannotPay(
        _ requested: Amount, asset: Address, now: UInt64
    ) throws(NodeError) -> NodeError? {
        // Every coin a payment could take now (asking for the most there is lists them all),
        // and the balance, in one reading.
        let (coins, balance) = try storing {
            try store.payability(
                owner: address, asset: asset, now: now,
                minimumLifetime: limits.minimumCoinLifetime, limits: limits)
        }
        let usable = checkedSum(coins.map(\.coin.amount)) ?? .max
        if usable >= requested { return nil }
        // Reserved coins come free when their payment is cancelled or handed over (its change);
        // coins passed on too often do not, however long one waits.
        let (total, overflow) = usable.addingReportingOverflow(balance.reserved)
        if balance.reserved > 0, overflow || total >= requested {
            return NodeError(
                .busy(
                    "coins that could pay it are reserved by a payment not yet handed over (another command making one now, or one left prepared); try again"
                ), resolvedBy: .listPayments)
        }
        // Spendable in the balance, yet no payment may take it: coins passed on too often.
        let tooDeep = balance.spendable > usable ? balance.spendable - usable : 0
        return .rejected(
            .insufficientFunds(
                asset: asset, requested: requested, available: usable,
                pending: balance.pending + balance.inDoubt, expiring: balance.expiring,
                expired: balance.expired, tooDeep: tooDeep))
    }

    /// The payment may now reach the payee: it can no longer be cancelled, its inputs are
    /// spent (the transfer is irrevocable once out) and its change is spendable.
    public func handedOver(_ requestID: Bytes32, now: UInt64) throws(NodeError) {
        try storing { try store.advance(payment: requestID, by: .handOver, now: now) }
    }

    /// A transport that proved nothing left the node (an atomic write that failed, a link
    /// that never opened) gives the payment back: cancelled, its coins spendable again.
    public func notSent(_ requestID: Bytes32, now: UInt64) throws(NodeError) {
        try storing { try store.advance(payment: requestID, by: .notSent, now: now) }
    }

    /// The link died after the payment may have left: in doubt until the payee answers.
    public func linkLost(_ requestID: Bytes32, now: UInt64) throws(NodeError) {
        try storing { try store.advance(payment: requestID, by: .linkLost, now: now) }
    }

    /// Cancels a payment that never left the node; its coins become spendable again.
    @discardableResult
    public func cancelPayment(
        _ requestID: Bytes32, now: UInt64
    ) throws(NodeError) -> OutgoingPaymentState {
        try storing { try store.advance(payment: requestID, by: .cancel, now: now).state }
    }

    /// The payment's bytes to send again. One transaction checks the state and makes a
    /// prepared payment pending: a cancelled one (coins released) is refused, and none can be
    /// cancelled after this.
    public func exportPayment(_ requestID: Bytes32, now: UInt64) throws(NodeError) -> [UInt8] {
        try storing { try store.advance(payment: requestID, by: .export, now: now).envelope }
    }

    /// Verifies a receipt envelope against the payment it names and marks that payment spent.
    /// Receiving the same receipt again changes nothing. With `requestID`, a receipt for any
    /// other payment is refused (a stale one left on a screen).
    public func recordReceipt(
        _ bytes: [UInt8], for requestID: Bytes32? = nil, now: UInt64
    ) throws(NodeError) -> OutgoingPaymentRecord {
        let envelope = try decode(bytes)
        guard case .receipt(let signed) = envelope.message else {
            throw NodeError(.usage("expected a receipt, got a \(envelope.message.kind)"))
        }
        if let requestID, signed.receipt.requestID != requestID {
            throw NodeError(
                .usage("that receipt is for request \(signed.receipt.requestID.hex), not this one"))
        }
        guard let payment = try storing({ try store.outgoingPayment(signed.receipt.requestID) })
        else { throw .rejected(.unknownRequest(signed.receipt.requestID)) }
        do throws(ProtocolError) {
            try signed.verify(payee: payment.payee, in: domain)
            guard signed.receipt.paymentDigest == payment.digest else {
                throw ProtocolError(
                    .paymentMismatch(
                        .receiptDigest(
                            acknowledged: signed.receipt.paymentDigest, payment: payment.digest)))
            }
        } catch { throw NodeError(.rejected(error)) }
        return try storing {
            try store.advance(
                payment: payment.requestID, by: .receipt, receipt: bytes,
                acknowledging: signed.receipt.paymentDigest, now: now)
        }
    }
}
