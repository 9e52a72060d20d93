import Settlement
import Tender
import WalletStore

extension Wallet {
    /// Coins to redeem now, oldest first, with their proofs, as the planner takes them.
    public func redeemableCoins(now: UInt64, limit: Int) throws(NodeError) -> [RedeemableCoin] {
        try storing {
            try store.redeemable(now: now, limit: limit).map {
                RedeemableCoin(coin: $0.coin, proof: $0.proof, domain: domain)
            }
        }
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

    public func settleRedeem(
        _ tx: Bytes32, coins: [CoinID: CoinSettlement], now: UInt64
    ) throws(NodeError) {
        try storing { try store.settleRedeem(tx, coins: coins, now: now) }
    }

    public func redeemFailed(_ tx: Bytes32, now: UInt64) throws(NodeError) {
        try storing { try store.redeemFailed(tx, now: now) }
    }
}
