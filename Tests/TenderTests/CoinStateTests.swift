import Testing

@testable import Tender

@Suite struct CoinStateTests {
    @Test func eachMoveStartsOnlyFromItsStatesAndEndsOutsideThem() {
        for transition in CoinTransition.allCases {
            #expect(!transition.from.isEmpty)
            #expect(!transition.from.contains(transition.to), "\(transition) loops")
        }
        // A payment's life: reserve, hand over (spend), or give back (release).
        #expect(CoinTransition.reserve.from == [.unspent] && CoinTransition.reserve.to == .reserved)
        #expect(CoinTransition.spend.from == [.reserved] && CoinTransition.spend.to == .spent)
        #expect(CoinTransition.release.from == [.reserved, .spent])
        #expect(CoinTransition.releaseChange.from == [.incoming])
        // Nothing moves a settled coin; a coin in a redeem leaves it only settled, or back to
        // unspent when its transaction failed (the vault paid nothing).
        for state in [CoinState.redeemed, .conflicted, .expired] {
            #expect(CoinTransition.allCases.allSatisfy { !$0.from.contains(state) })
        }
        let fromRedeeming = CoinTransition.allCases.filter { $0.from.contains(.redeeming) }
        #expect(Set(fromRedeeming.map(\.to)) == [.redeemed, .conflicted, .expired, .unspent])
        #expect(CoinTransition.redeem.from == [.unspent] && CoinTransition.redeem.to == .redeeming)
    }

    @Test func statesAreStoredByTheirSchemaNames() {
        #expect(
            Set(CoinState.allCases.map(\.rawValue)) == [
                "incoming", "unspent", "reserved", "spent", "redeeming", "redeemed", "conflicted",
                "expired",
            ])
        #expect(Set(CoinSource.allCases.map(\.rawValue)) == ["received", "change"])
    }
}
