/// A payment: the request it answers (by id, with the terms the payer agreed to), the coins
/// that pay the payee, and the proof bundle they come from. The coins are named explicitly:
/// a bundle's ancestors can hold older coins of the payee's, which must not count again.
public struct Payment: Hashable, Sendable {
    public let requestID: Bytes32
    public let payee: Address
    public let amount: Amount
    public let asset: Address
    public let memo: String
    /// The coins, created by `bundle` and owned by the payee, that sum to `amount`.
    public let coins: [CoinID]
    public let bundle: ProofBundle

    public init(
        requestID: Bytes32, payee: Address, amount: Amount, asset: Address, memo: String = "",
        coins: [CoinID], bundle: ProofBundle
    ) {
        self.coins = coins
        self.requestID = requestID
        self.payee = payee
        self.amount = amount
        self.asset = asset
        self.memo = memo
        self.bundle = bundle
    }
}

/// A payment that passed every offline check, ready to be accepted by the payee's store.
public struct CheckedPayment: Sendable {
    public let payment: Payment
    public let verified: VerifiedBundle
    /// The coins the payee receives.
    public let credited: [Coin]
    public let digest: Bytes32
}

extension Verifier {
    /// Checks a payment addressed to `payee` (this node): the bundle, that the payee's coins sum
    /// exactly to the amount in the asset, the request's terms when the payee issued one, and the
    /// issuer policy. `held` are coins this wallet already has: receiving one again is refused.
    public func check(
        _ payment: Payment, payee: Address, request: PaymentRequest? = nil, policy: IssuerPolicy,
        now: UInt64, seenSpends: [CoinID: SignedTransfer] = [:], held: Set<CoinID> = []
    ) throws(ProtocolError) -> CheckedPayment {
        guard payment.payee == payee else {
            throw ProtocolError(
                .paymentMismatch("it pays \(payment.payee), this wallet is \(payee)"))
        }
        if let request {
            try request.checkPayable(in: domain, now: now)
            guard payment.amount == request.amount else {
                throw ProtocolError(
                    .paymentMismatch("amount \(payment.amount), requested \(request.amount)"))
            }
            guard payment.asset == request.asset else {
                throw ProtocolError(
                    .paymentMismatch("asset \(payment.asset), requested \(request.asset)"))
            }
        }
        let verified = try verify(payment.bundle, now: now, seenSpends: seenSpends)
        let leaves = Set(verified.leaves.map(\.id))
        var credited: [Coin] = []
        for id in payment.coins {
            guard let coin = verified.coins[id], leaves.contains(id) else {
                throw ProtocolError(
                    .paymentMismatch("coin \(id.short) is not an unspent coin of the proof"))
            }
            guard coin.owner == payee else {
                throw ProtocolError(.paymentMismatch("coin \(id.short) is owned by \(coin.owner)"))
            }
            guard coin.asset == payment.asset else {
                throw ProtocolError(
                    .paymentMismatch(
                        "coin \(coin.id.short) is asset \(coin.asset), not \(payment.asset)"))
            }
            guard !credited.contains(where: { $0.id == id }) else {
                throw ProtocolError(.duplicateCoin(id))
            }
            guard !held.contains(id) else { throw ProtocolError(.alreadyHeld(id)) }
            credited.append(coin)
        }
        guard !credited.isEmpty else { throw ProtocolError(.paymentMismatch("it names no coins")) }
        guard let total = checkedSum(credited.map(\.amount)) else {
            throw ProtocolError(.amountOverflow("credited coins"))
        }
        guard total == payment.amount else {
            throw ProtocolError(
                .paymentMismatch("coins to the payee sum to \(total), not \(payment.amount)"))
        }
        try policy.check(credited)
        return CheckedPayment(
            payment: payment, verified: verified, credited: credited,
            digest: paymentDigest(creditedCoins: credited.map(\.id)))
    }
}
