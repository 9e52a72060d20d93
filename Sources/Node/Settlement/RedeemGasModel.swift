import Tender

/// What a redeem batch costs in gas, estimated from its shape, conservatively: each figure is
/// rounded up from the vault's measured costs (Docs/VAULT.md, "Gas": 0-hop coins at 34,129
/// marginal, 1-hop with sixteen coins per transfer at 30,456, a hop at ~34,000). Batches are
/// planned with it and the chain's `eth_estimateGas` has the last word before sending.
public struct RedeemGasModel: Sendable, Hashable {
    /// The transaction's base, calldata header and per-batch bookkeeping (payouts).
    public var base: UInt64 = 70_000
    public var perNote: UInt64 = 10_000
    /// A transfer with one input: its signature recovery, the input consumed, its event.
    public var perTransfer: UInt64 = 36_000
    public var perExtraInput: UInt64 = 24_000
    public var perOutput: UInt64 = 4_000
    /// A redeemed coin: its slot, its event, its share of the payout.
    public var perCoin: UInt64 = 25_000
    /// A token payout (one per issuer and token in a batch): the vault gives the token's
    /// `transfer` at most 150,000 gas (TOKEN_PAYOUT_GAS, Docs/VAULT.md), and a hostile token
    /// may burn all of it; budgeted in full so that it cannot run the batch out of gas.
    public var perTokenPayout: UInt64 = 160_000

    public init() {}

    public func cost(
        notes: Int, transfers: Int, inputs: Int, outputs: Int, coins: Int, tokenPayouts: Int = 0
    ) -> UInt64 {
        base + perNote * UInt64(notes) + perTransfer * UInt64(transfers)
            + perExtraInput * UInt64(max(0, inputs - transfers)) + perOutput * UInt64(outputs)
            + perCoin * UInt64(coins) + perTokenPayout * UInt64(tokenPayouts)
    }
}
