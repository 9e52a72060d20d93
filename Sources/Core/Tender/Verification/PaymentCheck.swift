extension Verifier {
    /// Checks a payment addressed to `payee`: the one check a payee makes before accepting, and
    /// the one a payer makes before reserving coins for a payment, so that what a payer makes
    /// is exactly what a payee accepts.
    ///
    /// In order: the payee and the request's terms (when the payee issued one); the bundle
    /// (signatures, conservation, expiry, hop cap, seen-set); the coins paid, each an unspent
    /// coin of the bundle; the payer's signature over the terms, which must come from whoever
    /// created every paid coin; the coins' owner, asset, lifetime and sum; that every item
    /// of the bundle is an ancestor of a paid coin (nothing else is stored); and the issuer
    /// policy. `held` are coins this wallet already has: receiving one again is refused.
    public func check(
        _ payment: Payment, payee: Address, request: PaymentRequest? = nil, policy: IssuerPolicy,
        now: UInt64, seenSpends: [CoinID: SignedTransfer] = [:], held: Set<CoinID> = []
    ) throws(ProtocolError) -> CheckedPayment {
        guard payment.payee == payee else {
            throw ProtocolError(.paymentMismatch(.payee(paid: payment.payee, wallet: payee)))
        }
        if let request { try checkTerms(of: payment, against: request, now: now) }
        let verified = try verify(payment.bundle, now: now, seenSpends: seenSpends)
        let credited = try paidCoins(of: payment, in: verified)
        let digest = payment.digest(in: domain)
        let recovered = signer(of: digest, signature: payment.signature)
        for coin in credited {
            let creator = verified.creator(of: coin)
            guard recovered == creator else {
                throw ProtocolError(.badPaymentSignature(payer: creator, recovered: recovered))
            }
        }
        for coin in credited {
            guard coin.owner == payee else {
                throw ProtocolError(.paymentMismatch(.coinOwner(coin.id, owner: coin.owner)))
            }
            guard coin.asset == payment.asset else {
                throw ProtocolError(
                    .paymentMismatch(.coinAsset(coin.id, asset: coin.asset, paid: payment.asset)))
            }
            guard !held.contains(coin.id) else { throw ProtocolError(.alreadyHeld(coin.id)) }
            guard coin.expiry > now &+ limits.minimumCoinLifetime else {
                throw ProtocolError(
                    .expiresTooSoon(
                        coin: coin.id, expiry: coin.expiry, now: now,
                        minimum: limits.minimumCoinLifetime))
            }
        }
        guard let total = checkedSum(credited.map(\.amount)) else {
            throw ProtocolError(.amountOverflow("credited coins"))
        }
        guard total == payment.amount else {
            throw ProtocolError(
                .paymentMismatch(
                    .sum(credited: total, stated: payment.amount, asset: payment.asset)))
        }
        try checkEveryItemLeadsToAPaidCoin(verified, credited: credited)
        try policy.check(credited)
        return CheckedPayment(
            payment: payment, verified: verified, credited: credited, payer: recovered!,
            digest: digest)
    }

    private func checkTerms(
        of payment: Payment, against request: PaymentRequest, now: UInt64
    ) throws(ProtocolError) {
        try request.checkPayable(in: domain, now: now)
        guard payment.amount == request.amount else {
            throw ProtocolError(
                .paymentMismatch(
                    .amount(paid: payment.amount, requested: request.amount, asset: request.asset)))
        }
        guard payment.asset == request.asset else {
            throw ProtocolError(
                .paymentMismatch(.asset(paid: payment.asset, requested: request.asset)))
        }
    }

    /// The coins the terms name, each an unspent coin of the bundle, each once.
    private func paidCoins(
        of payment: Payment, in verified: VerifiedBundle
    ) throws(ProtocolError) -> [Coin] {
        guard !payment.coins.isEmpty else {
            throw ProtocolError(.paymentMismatch(.noCoins))
        }
        let leaves = Set(verified.leaves.map(\.id))
        var credited: [Coin] = []
        credited.reserveCapacity(payment.coins.count)
        var seen = Set<CoinID>()
        for id in payment.coins {
            guard let coin = verified.coins[id], leaves.contains(id) else {
                throw ProtocolError(.paymentMismatch(.notUnspent(id)))
            }
            guard seen.insert(id).inserted else { throw ProtocolError(.duplicateCoin(id)) }
            credited.append(coin)
        }
        return credited
    }

    /// A payee stores the proof of what it is paid and nothing more: an item no paid coin
    /// descends from would be stored for nothing (and could be used to fill the store).
    private func checkEveryItemLeadsToAPaidCoin(
        _ verified: VerifiedBundle, credited: [Coin]
    ) throws(ProtocolError) {
        let (notes, transfers) = verified.ancestry(of: credited.map(\.id))
        let bundle = verified.bundle
        if notes.count < bundle.notes.count {
            let index = bundle.notes.indices.first { !notes.contains($0) }!
            throw ProtocolError(.unrelatedProofItem("note #\(index)"))
        }
        if transfers.count < bundle.transfers.count {
            let index = bundle.transfers.indices.first { !transfers.contains($0) }!
            throw ProtocolError(.unrelatedProofItem("transfer #\(index)"))
        }
    }
}
