import NodeKit
import Tender
import WalletStore

extension Wallet {
    /// Coins to redeem now under `policy`, oldest first, with their proofs, as the planner
    /// takes them.
    public func redeemableCoins(
        now: UInt64, limit: Int, policy: RedeemPolicy = .all
    ) throws(NodeError) -> [RedeemableCoin] {
        let unpayableOnly: (expiringBy: UInt64, maxHops: Int)?
        switch policy {
        case .none: return []
        case .all: unpayableOnly = nil
        case .unpayable:
            let within = max(RedeemPolicy.nearExpiry, limits.minimumCoinLifetime)
            unpayableOnly = (now.addingReportingOverflow(within).partialValue, limits.maxHops)
        }
        return try storing {
            try store.redeemable(now: now, limit: limit, unpayableOnly: unpayableOnly).map {
                // The chain's own coin is weighed against gas; a token's worth in it is
                // not known here.
                RedeemableCoin(
                    coin: $0.coin, proof: $0.proof, domain: domain, isolated: $0.isolated,
                    value: $0.asset == .zero ? $0.amount : nil)
            }
        }
    }

    /// The asset of each of `coins` (held now or before).
    public func assets(of coins: [CoinID]) throws(NodeError) -> [CoinID: Address] {
        try storing { try store.assets(of: coins) }
    }

    @discardableResult
    public func expireCoins(now: UInt64) throws(NodeError) -> Int {
        try storing { try store.expireCoins(now: now) }
    }

    public func recordRedeem(_ redeem: SignedRedeem, now: UInt64) throws(NodeError) {
        try storing { try store.recordRedeem(redeem, now: now) }
    }

    public func openRedeems() throws(NodeError) -> [RedeemTransactionRecord] {
        try storing { try store.openRedeems() }
    }

    public func redeemTransaction(_ hash: Bytes32) throws(NodeError) -> RedeemTransactionRecord? {
        try storing { try store.redeemTransaction(hash) }
    }

    /// Records `redeem` in place of the unmined `old` (same nonce and coins, higher fees).
    public func recordReplacement(
        of old: Bytes32, by redeem: SignedRedeem, now: UInt64
    ) throws(NodeError) {
        try storing { try store.recordReplacement(of: old, by: redeem, now: now) }
    }

    /// The transactions `record` replaced, newest first.
    public func replacedRedeems(
        of record: RedeemTransactionRecord
    ) throws(NodeError) -> [RedeemTransactionRecord] {
        try storing { try store.replacedRedeems(of: record) }
    }

    public func nextNonce(chainID: UInt64, sender: Address) throws(NodeError) -> UInt64? {
        try storing { try store.nextNonce(chainID: chainID, sender: sender) }
    }

    public func redeemMined(
        _ tx: Bytes32, block: UInt64, hash: Bytes32, now: UInt64
    ) throws(NodeError) {
        try storing { try store.redeemMined(tx, block: block, hash: hash, now: now) }
    }

    public func redeemReorged(_ tx: Bytes32, now: UInt64) throws(NodeError) {
        try storing { try store.redeemReorged(tx, now: now) }
    }

    /// Settles the coins of a final redeem; returns the assets it held back (their coins were
    /// refused for want of collateral).
    @discardableResult
    public func settleRedeem(
        _ tx: Bytes32, coins: [CoinID: CoinSettlement], now: UInt64
    ) throws(NodeError) -> [RedeemHold] {
        try storing { try store.settleRedeem(tx, coins: coins, now: now) }
    }

    /// See `WalletDatabase.redeemFailed`: the issuer's asset held back, when one is.
    @discardableResult
    public func redeemFailed(
        _ tx: Bytes32, reverted: Bool, now: UInt64
    ) throws(NodeError) -> RedeemHold? {
        try storing { try store.redeemFailed(tx, reverted: reverted, now: now) }
    }

}

extension Wallet {
    /// Payments that left without a receipt (pending or in doubt), with their inputs.
    public func unsettledPayments() throws(NodeError) -> [UnsettledPayment] {
        try storing { try store.unsettledPayments() }
    }

    /// The vault shows the payment's transfer on chain: spent, as a receipt would make it.
    public func settleFromChain(_ requestID: Bytes32, now: UInt64) throws(NodeError) {
        _ = try storing { try store.advance(payment: requestID, by: .onChain, now: now) }
    }

    /// Its coins expired and the vault never saw its transfer: its inputs are spendable again
    /// (and its change, never spent onward, forgotten). Refused (changing nothing) when its
    /// change was spent onward or is being redeemed: that needs the transfer on chain.
    public func lapse(_ requestID: Bytes32, now: UInt64) throws(NodeError) {
        _ = try storing { try store.advance(payment: requestID, by: .lapse, now: now) }
    }
}

extension Wallet {
    public func fraudProofs() throws(NodeError) -> [CoinID: FraudProofRecord] {
        try storing { try store.fraudProofs() }
    }

    /// The transfer this wallet saw spend each of `coins` (its seen-set), by digest.
    public func seenSpendDigests(of coins: [CoinID]) throws(NodeError) -> [CoinID: Bytes32] {
        try storing { try store.seenSpends(of: coins) }.mapValues {
            $0.transfer.digest(in: domain)
        }
    }

    /// The coins a double spend cost this wallet (`WalletDatabase.coinsLostToDoubleSpends`).
    public func coinsLostToDoubleSpends() throws(NodeError) -> Set<CoinID> {
        try storing { try store.coinsLostToDoubleSpends() }
    }

    public func recordFraudProof(
        coin: CoinID, hash: Bytes32, raw: [UInt8], chainID: UInt64, sender: Address,
        nonce: UInt64, now: UInt64
    ) throws(NodeError) {
        try storing {
            try store.recordFraudProof(
                coin: coin, hash: hash, raw: raw, chainID: chainID, sender: sender, nonce: nonce,
                now: now)
        }
    }

    public func fraudProven(_ coin: CoinID, now: UInt64) throws(NodeError) {
        try storing { try store.fraudProven(coin, now: now) }
    }

    public func forgetFraudProof(_ coin: CoinID) throws(NodeError) {
        try storing { try store.forgetFraudProof(coin) }
    }
}
