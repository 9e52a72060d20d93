import NodeKit
import Tender
import Testing

/// A payment the wallet cannot cover reads in the units of the asset being paid, as every
/// other amount a person reads (Docs/OPERATIONS.md, "Amounts").
@Suite struct RefusalUnitsTests {
    let usdc = try! Address("0x00000000000000000000000000000000000000c1")
    func refusal(of asset: Address) -> NodeError {
        NodeError(
            .rejected(
                ProtocolError(
                    .insufficientFunds(asset: asset, requested: 9_000_000, available: 2_500_000))))
    }

    @Test func aTokensAmountsCarryItsAddressAndTheCoinsItsSymbol() throws {
        let units = Denominations(
            nativeCoin: try Denomination(symbol: "DEV", decimals: 2),
            tokens: [usdc: try Denomination(symbol: "USDC", decimals: 6)])
        #expect(
            refusal(of: usdc).description(in: DenominatedWording(units))
                == "rejected: insufficient funds: need 9.00 USDC (0x0000…00C1), spendable 2.50 USDC (0x0000…00C1)"
        )
        #expect(
            refusal(of: .zero).description(in: DenominatedWording(units))
                == "rejected: insufficient funds: need 90000.00 DEV, spendable 25000.00 DEV")
        // The code scripts read does not move.
        #expect(refusal(of: usdc).code == "insufficient-funds")
    }

    @Test func anAssetWithNoNameSaysBaseUnitsAndNoFrontEndNone() {
        #expect(
            refusal(of: usdc).description(in: DenominatedWording(Denominations()))
                == "rejected: insufficient funds: need 9000000 base units, spendable 2500000 base units"
        )
        #expect(
            refusal(of: usdc).description
                == "rejected: insufficient funds: need 9000000, spendable 2500000")
    }
}
