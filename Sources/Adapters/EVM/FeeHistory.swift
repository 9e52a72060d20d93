import BigInt
import Codecs
import Tender

/// `eth_feeHistory`: base fees of `oldestBlock…` plus the next block's (one more entry than
/// blocks), how full each block was, and each block's tips at the asked percentiles.
public struct FeeHistory: Sendable, Hashable {
    public let oldestBlock: UInt64
    public let baseFeePerGas: [Wei]
    public let gasUsedRatios: [Double]
    public let rewards: [[Wei]]

    init(json: JSONValue, context: String, percentiles: Int) throws(EVMError) {
        oldestBlock = try json.field("oldestBlock", of: context).uint64("\(context).oldestBlock")
        var baseFees: [Wei] = []
        for (index, fee) in try json.field("baseFeePerGas", of: context)
            .array("\(context).baseFeePerGas").enumerated()
        {
            baseFees.append(try fee.quantity("\(context).baseFeePerGas[\(index)]"))
        }
        var ratios: [Double] = []
        for ratio in try json.field("gasUsedRatio", of: context).array("\(context).gasUsedRatio") {
            guard case .number(let value) = ratio, value >= 0, value <= 1 else {
                throw .malformedResponse("\(context).gasUsedRatio: \(ratio.excerpt) is not in 0…1")
            }
            ratios.append(value)
        }
        guard baseFees.count == ratios.count + 1 else {
            throw .malformedResponse(
                "\(context): \(baseFees.count) base fees for \(ratios.count) blocks (one more expected)"
            )
        }
        var rewards: [[Wei]] = []
        if percentiles > 0 {
            let blocks = try json.field("reward", of: context).array("\(context).reward")
            guard blocks.count == ratios.count else {
                throw .malformedResponse(
                    "\(context).reward: \(blocks.count) entries for \(ratios.count) blocks")
            }
            for (index, block) in blocks.enumerated() {
                var tips: [Wei] = []
                for tip in try block.array("\(context).reward[\(index)]") {
                    tips.append(try tip.quantity("\(context).reward[\(index)]"))
                }
                guard tips.count == percentiles else {
                    throw .malformedResponse(
                        "\(context).reward[\(index)]: \(tips.count) values for \(percentiles) percentiles"
                    )
                }
                rewards.append(tips)
            }
        }
        self.baseFeePerGas = baseFees
        self.gasUsedRatios = ratios
        self.rewards = rewards
    }
}
