import BigInt

/// An EIP-1559 fee pair, per unit of gas.
public struct Fees: Sendable, Hashable, CustomStringConvertible {
    public var maxPriorityFeePerGas: Wei
    public var maxFeePerGas: Wei

    public init(maxPriorityFeePerGas: Wei, maxFeePerGas: Wei) {
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.maxFeePerGas = maxFeePerGas
    }

    /// Fees a node accepts as the replacement of a transaction paying `self`: both fields at
    /// least 10 % higher, rounded up (geth's price bump; Docs/EVM.md), and at least 1 wei more.
    public var bumped: Fees {
        Fees(
            maxPriorityFeePerGas: Self.bump(maxPriorityFeePerGas),
            maxFeePerGas: Self.bump(maxFeePerGas))
    }

    static func bump(_ fee: Wei) -> Wei { Swift.max((fee * 110 + 99) / 100, fee + 1) }

    /// The larger of each field.
    public func atLeast(_ other: Fees) -> Fees {
        Fees(
            maxPriorityFeePerGas: Swift.max(maxPriorityFeePerGas, other.maxPriorityFeePerGas),
            maxFeePerGas: Swift.max(maxFeePerGas, other.maxFeePerGas))
    }

    public var description: String { "tip \(maxPriorityFeePerGas) wei, cap \(maxFeePerGas) wei" }
}

/// How Tender prices a transaction from `eth_feeHistory` (Docs/EVM.md, "Fees").
public struct FeePolicy: Sendable, Hashable {
    /// Blocks of history asked for.
    public var blocks: UInt64
    /// The reward percentile read from each block.
    public var percentile: Double
    /// The least tip ever proposed (1 gwei: the dev chain's and geth's default suggestion).
    public var minimumTip: Wei
    /// maxFee = baseFeeMultiplier × next base fee + tip: room for the base fee to rise
    /// 12.5 % a block for several blocks before the transaction stops being includable.
    public var baseFeeMultiplier: Wei

    public init(
        blocks: UInt64 = 10, percentile: Double = 50, minimumTip: Wei = .gwei,
        baseFeeMultiplier: Wei = 2
    ) {
        self.blocks = blocks
        self.percentile = percentile
        self.minimumTip = minimumTip
        self.baseFeeMultiplier = baseFeeMultiplier
    }

    /// tip = the median of the blocks' rewards at `percentile` (blocks with no transactions
    /// say nothing about tips and are left out), at least `minimumTip`; maxFee from the next
    /// block's base fee, the last entry of the history.
    public func propose(from history: FeeHistory) -> Fees {
        let tip = self.tip(from: history)
        let baseFee = history.baseFeePerGas.last ?? 0
        return Fees(maxPriorityFeePerGas: tip, maxFeePerGas: baseFeeMultiplier * baseFee + tip)
    }

    /// What a unit of gas costs a transaction priced by `propose` if the next block takes it:
    /// its base fee and the tip (the cap only bounds it).
    public func expectedPrice(from history: FeeHistory) -> Wei {
        (history.baseFeePerGas.last ?? 0) + tip(from: history)
    }

    private func tip(from history: FeeHistory) -> Wei {
        let rewards = zip(history.rewards, history.gasUsedRatios)
            .filter { $0.1 > 0 }
            .compactMap { $0.0.first }
            .sorted()
        let median = rewards.isEmpty ? 0 : rewards[rewards.count / 2]
        return Swift.max(median, minimumTip)
    }
}
