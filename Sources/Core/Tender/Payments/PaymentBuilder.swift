import Secp256k1

/// A coin this wallet owns, with the proof it must hand over to spend it.
public struct SpendableCoin: Hashable, Sendable {
    public let coin: Coin
    public let proof: ProofBundle

    public init(coin: Coin, proof: ProofBundle) {
        self.coin = coin
        self.proof = proof
    }
}

/// What paying will do: the payment to hand over, the coins it consumes and the change it
/// creates. The wallet records all of it in one transaction before anything leaves the node.
public struct PaymentPlan: Sendable {
    public let payment: Payment
    public let spent: [CoinID]
    public let transfers: [SignedTransfer]
    /// The EIP-712 digest of each transfer (the seen-set records them).
    public let transferDigests: [Bytes32]
    /// Change back to the payer, with the proof to spend it later.
    public let change: [SpendableCoin]
    /// Coins the payee will own.
    public let credited: [CoinID]
    /// The payment's digest: what the receipt must acknowledge.
    public let digest: Bytes32
}

/// Chooses coins and signs the transfers of a payment (payer side).
public struct PaymentBuilder: Sendable {
    public let domain: Domain
    public let limits: VerificationLimits

    public init(domain: Domain, limits: VerificationLimits = .standard) {
        self.domain = domain
        self.limits = limits
    }

    /// Coins the selection may use: the payer's, in the asset, below the hop cap, and alive for
    /// at least `limits.minimumCoinLifetime` more seconds, as the payee will require.
    public func eligible(
        _ coins: [SpendableCoin], owner: Address, asset: Address, now: UInt64
    ) -> [SpendableCoin] {
        coins.filter {
            $0.coin.owner == owner && $0.coin.asset == asset && $0.coin.depth < limits.maxHops
                && $0.coin.expiry > now &+ limits.minimumCoinLifetime
        }
    }

    /// Selects coins, signs the transfers and then the payment's terms. The result is not
    /// checked here: the wallet runs the payee's check on it before reserving anything.
    public func plan(
        requestID: Bytes32, payee: Address, amount: Amount, asset: Address, memo: String = "",
        from coins: [SpendableCoin], key: PrivateKey, now: UInt64
    ) throws(ProtocolError) -> PaymentPlan {
        let payer = Address(publicKey: key.publicKey)
        guard payee != payer else {
            throw ProtocolError(.paymentMismatch(.selfPayment))
        }
        guard amount > 0 else { throw ProtocolError(.malformed("amount must be positive")) }
        let candidates = eligible(coins, owner: payer, asset: asset, now: now)
        let selected = try select(amount: amount, of: asset, from: candidates)

        var remaining = amount
        var transfers: [SignedTransfer] = []
        var digests: [Bytes32] = []
        var change: [SpendableCoin] = []
        var credited: [CoinID] = []
        let baseProof = ProofBundle.merging(selected.map(\.proof))
        for group in chunks(of: selected) {
            let sum = checkedSum(group.map(\.coin.amount))!  // selection summed them already
            let toPayee = min(sum, remaining)
            remaining -= toPayee
            var outputs = [Output(owner: payee, amount: toPayee)]
            if sum > toPayee { outputs.append(Output(owner: payer, amount: sum - toPayee)) }
            let transfer = Transfer(inputs: group.map(\.coin.id).sorted(), outputs: outputs)
            let signed = try SignedTransfer(signing: transfer, with: key, in: domain)
            let digest = transfer.digest(in: domain)
            let ids = signed.outputCoins(digest: digest)
            credited.append(ids[0])
            if outputs.count == 2 {
                let first = group[0].coin
                let coin = Coin(
                    id: ids[1], owner: payer, issuer: first.issuer, asset: asset,
                    amount: outputs[1].amount, expiry: group.map(\.coin.expiry).min()!,
                    depth: 1 + group.map(\.coin.depth).max()!, origin: .transfer(0, output: 1))
                let proof = ProofBundle.merging(
                    group.map(\.proof) + [ProofBundle(transfers: [signed])])
                change.append(SpendableCoin(coin: coin, proof: proof))
            }
            transfers.append(signed)
            digests.append(digest)
            if remaining == 0 { break }
        }
        var bundle = baseProof
        bundle.transfers.append(contentsOf: transfers)
        let payment = try Payment(
            signing: PaymentTerms(
                requestID: requestID, payee: payee, amount: amount, asset: asset, memo: memo,
                coins: credited), bundle: bundle, with: key, in: domain)
        return PaymentPlan(
            payment: payment, spent: transfers.flatMap(\.transfer.inputs), transfers: transfers,
            transferDigests: digests, change: change,
            credited: credited, digest: payment.digest(in: domain))
    }

    /// The smallest single coin that covers the amount (least change, fewest inputs); failing
    /// that, the largest coins first until they cover it.
    func select(
        amount: Amount, of asset: Address, from candidates: [SpendableCoin]
    ) throws(ProtocolError) -> [SpendableCoin] {
        let byAmount = candidates.sorted {
            ($0.coin.amount, $0.coin.id) < ($1.coin.amount, $1.coin.id)
        }
        if let single = byAmount.first(where: { $0.coin.amount >= amount }) { return [single] }
        var chosen: [SpendableCoin] = []
        var total: Amount = 0
        for candidate in byAmount.reversed() {
            // Inputs summing past the largest amount could not be one transfer's: skip to a
            // smaller coin instead.
            let (next, overflow) = total.addingReportingOverflow(candidate.coin.amount)
            if overflow { continue }
            chosen.append(candidate)
            total = next
            if total >= amount { return chosen }
        }
        let available = checkedSum(candidates.map(\.coin.amount)) ?? .max
        throw ProtocolError(
            .insufficientFunds(asset: asset, requested: amount, available: available))
    }

    /// Inputs of one transfer share issuer (and asset), and their count is capped.
    func chunks(of selected: [SpendableCoin]) -> [[SpendableCoin]] {
        var groups: [Address: [SpendableCoin]] = [:]
        var issuers: [Address] = []
        for coin in selected {
            if groups[coin.coin.issuer] == nil { issuers.append(coin.coin.issuer) }
            groups[coin.coin.issuer, default: []].append(coin)
        }
        return issuers.flatMap { issuer in
            let group = groups[issuer]!
            return stride(from: 0, to: group.count, by: limits.maxInputsPerTransfer).map {
                Array(group[$0..<min($0 + limits.maxInputsPerTransfer, group.count)])
            }
        }
    }
}
