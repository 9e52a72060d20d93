import BigInt
import Testing

@testable import EVM

@Suite struct FeesTests {
    /// A history as eth_feeHistory answers it: `ratios` and `tips` per block, base fees with
    /// the next block's last.
    func history(baseFees: [Wei], ratios: [Double], tips: [Wei]) throws -> FeeHistory {
        let json = JSONValue.object([
            "oldestBlock": "0x10",
            "baseFeePerGas": .array(baseFees.map { .string($0.quantity) }),
            "gasUsedRatio": .array(ratios.map { .number($0) }),
            "reward": .array(tips.map { .array([.string($0.quantity)]) }),
        ])
        return try FeeHistory(json: json, context: "test", percentiles: 1)
    }

    @Test func tipIsTheMedianOfBlocksWithTransactionsAndMaxFeeTwiceTheNextBaseFee() throws {
        let gwei = Wei.gwei
        let fees = FeePolicy().propose(
            from: try history(
                baseFees: [7 * gwei, 8 * gwei, 9 * gwei, 10 * gwei, 11 * gwei],
                ratios: [0.5, 0, 0.2, 0.9], tips: [3 * gwei, 0, 2 * gwei, 5 * gwei]))
        // Empty block left out: tips 2, 3, 5 gwei → 3 gwei; next base fee 11 gwei.
        #expect(fees == Fees(maxPriorityFeePerGas: 3 * gwei, maxFeePerGas: 25 * gwei))
    }

    @Test func tipIsAtLeastTheFloor() throws {
        let fees = FeePolicy().propose(
            from: try history(baseFees: [875_000_000, 765_625_000], ratios: [0.1], tips: [5]))
        #expect(fees == Fees(maxPriorityFeePerGas: .gwei, maxFeePerGas: 2 * 765_625_000 + .gwei))
        let quiet = FeePolicy().propose(
            from: try history(baseFees: [7, 7], ratios: [0], tips: [0]))
        #expect(quiet.maxPriorityFeePerGas == .gwei)
    }

    /// geth's rule: a replacement pays at least 110 % of both fees (Rigs/dev-chain/server.py
    /// checks `new × 100 ≥ old × 110`).
    @Test(arguments: [Wei(0), 1, 9, 10, 11, 1_000_000_007, Wei.gwei, (Wei(1) << 255) + 3])
    func bumpIsAtLeastTenPercentRoundedUp(_ fee: Wei) {
        let bumped = Fees(maxPriorityFeePerGas: fee, maxFeePerGas: fee * 2 + 1).bumped
        for (old, new) in [(fee, bumped.maxPriorityFeePerGas), (fee * 2 + 1, bumped.maxFeePerGas)] {
            #expect(new * 100 >= old * 110)
            #expect(new > old)
            #expect(new <= max(old * 110 / 100 + 1, old + 1))  // no more than needed
        }
    }

    @Test func historyMustBeConsistent() {
        #expect(throws: EVMError.self) {
            try history(baseFees: [1, 2, 3], ratios: [0.5], tips: [1])  // two base fees too many
        }
        #expect(throws: EVMError.self) { try history(baseFees: [1, 2], ratios: [1.5], tips: [1]) }
        #expect(throws: EVMError.self) { try history(baseFees: [1, 2], ratios: [0.5], tips: []) }
    }
}
