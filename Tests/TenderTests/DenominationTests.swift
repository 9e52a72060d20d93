import Testing

@testable import Tender

@Suite struct DenominationTests {
    let usdc = try! Denomination(symbol: "USDC", decimals: 6)
    let eth = try! Denomination(symbol: "ETH", decimals: 18)
    let yen = try! Denomination(symbol: "JPY", decimals: 0)

    @Test func amountsReadWithTheirSymbolAndAtLeastTwoDecimals() {
        #expect(usdc.format(2_500_000) == "2.50 USDC")
        #expect(usdc.format(2_505_000) == "2.505 USDC")
        #expect(usdc.format(1) == "0.000001 USDC")
        #expect(usdc.format(0) == "0.00 USDC")
        #expect(usdc.format(1_000_000_000_000) == "1000000.00 USDC")
        #expect(eth.format(1_000_000_000_000_000_000) == "1.00 ETH")
        #expect(eth.format(250_000_000_000_000_000) == "0.25 ETH")
        #expect(eth.format(100) == "0.0000000000000001 ETH")
        #expect(yen.format(1250) == "1250 JPY")
        #expect(Denomination.baseUnits.format(100) == "100 base units")
        let one = try! Denomination(symbol: "X", decimals: 1)
        #expect(one.format(25) == "2.5 X")
        #expect(one.format(20) == "2.0 X")
        // The largest amount, in the most decimals there may be.
        let most = try! Denomination(symbol: "M", decimals: 36)
        #expect(most.format(.max) == "340.282366920938463463374607431768211455 M")
    }

    @Test func typedAmountsAreExactInBaseUnits() throws {
        #expect(try usdc.parse("2.50") == 2_500_000)
        #expect(try usdc.parse("2.5") == 2_500_000)
        #expect(try usdc.parse("2") == 2_000_000)
        #expect(try usdc.parse("0.000001") == 1)
        #expect(try usdc.parse(".5") == 500_000)
        #expect(try usdc.parse("2.") == 2_000_000)
        #expect(try usdc.parse("2.50 USDC") == 2_500_000)
        #expect(try usdc.parse(" 2.50USDC ") == 2_500_000)
        #expect(try usdc.parse("\t2.50\tUSDC\n") == 2_500_000)
        // A symbol that starts with a digit is one only after a space: 51INCH is not 5 1INCH.
        let inch = try Denomination(symbol: "1INCH", decimals: 18)
        #expect(try inch.parse("5 1INCH") == 5_000_000_000_000_000_000)
        #expect(throws: AmountTextError.self) { try inch.parse("51INCH") }
        #expect(try eth.parse("1.25") == 1_250_000_000_000_000_000)
        #expect(try eth.parse("0.000000000000000001") == 1)
        #expect(try yen.parse("1250") == 1250)
        #expect(try Denomination.baseUnits.parse("100") == 100)
        #expect(try usdc.parse("0") == 0)
        // Every amount reads back to itself.
        for amount: Amount in [0, 1, 9, 10, 999_999, 1_000_000, 2_500_000, 123_456_789, .max] {
            #expect(try usdc.parse(usdc.number(amount)) == amount)
            #expect(try eth.parse(eth.format(amount)) == amount)
        }
    }

    @Test func whatIsNotAnAmountInThisDenominationIsRefusedSayingWhy() {
        func refusal(_ denomination: Denomination, _ text: String) -> String {
            do {
                let amount = try denomination.parse(text)
                return "accepted as \(amount)"
            } catch { return error.description }
        }
        #expect(refusal(usdc, "2.5000001").contains("has 7 decimals; USDC has 6"))
        #expect(refusal(yen, "12.5").contains("has 1 decimals; JPY has 0"))
        #expect(refusal(.baseUnits, "2.50").contains("decimals are not known"))
        #expect(refusal(usdc, "2.50 ETH").contains("not an amount in USDC"))
        #expect(refusal(usdc, "1e6").contains("not an amount in USDC"))
        for text in ["", " ", ".", "-1", "+1", "1.2.3", "1,000", "USDC", "0x10", "½", "١٢"] {
            #expect(refusal(usdc, text).contains("is not an amount"), "\(text)")
        }
        // Each common mistake named (Docs/OPERATIONS.md, "Amounts").
        for (text, named) in [
            ("12,50", "a point, not a comma"), ("1,250", "no thousands separators"),
            ("1e3", "no exponents"), ("-1", "never negative"), ("1 000", "no spaces inside"),
            ("0.1 USDT", "'USDT' is not this asset's symbol"), ("1.2.3", "one point at most"),
        ] {
            #expect(refusal(usdc, text).contains(named), "\(text): \(refusal(usdc, text))")
        }
        #expect(
            refusal(.baseUnits, "340282366920938463463374607431768211456").contains("more than"))
        #expect(refusal(eth, "340282366920938463464").contains("more than"))
    }

    @Test func aSymbolIsShortAndPrintableAndDecimalsFitAnAmount() {
        #expect(throws: AmountTextError.self) { try Denomination(symbol: "", decimals: 6) }
        #expect(throws: AmountTextError.self) { try Denomination(symbol: "US DC", decimals: 6) }
        #expect(throws: AmountTextError.self) { try Denomination(symbol: "USD\u{0}", decimals: 6) }
        #expect(throws: AmountTextError.self) {
            try Denomination(symbol: "A\u{202E}B", decimals: 6)
        }
        #expect(throws: AmountTextError.self) {
            try Denomination(symbol: String(repeating: "X", count: 17), decimals: 6)
        }
        #expect(throws: AmountTextError.self) { try Denomination(symbol: "X", decimals: 37) }
        #expect(throws: AmountTextError.self) { try Denomination(symbol: "X", decimals: -1) }
        // Digits and points alone would read as part of the amount ("100" as 10 of "0").
        #expect(throws: AmountTextError.self) { try Denomination(symbol: "0", decimals: 2) }
        #expect(throws: AmountTextError.self) { try Denomination(symbol: ".5", decimals: 2) }
        #expect(throws: Never.self) { try Denomination(symbol: "USDC.e", decimals: 6) }
        #expect(throws: Never.self) { try Denomination(symbol: "1INCH", decimals: 18) }
        #expect(throws: Never.self) { try Denomination(symbol: "€", decimals: 2) }
        #expect(usdc.description == "USDC (6 decimals)")
        #expect(Denomination.baseUnits.description == "base units")
    }

    /// A payment that cannot be made, and an issuer's cap, read in the units typed; what the
    /// core says alone stays base units (it does not know the asset's decimals).
    @Test func anInsufficientFundsRefusalReadsInTheUnitsGiven() {
        let refusal = ProtocolError(
            .insufficientFunds(
                asset: .zero, requested: 9_000_000, available: 2_500_000, pending: 1_000_000,
                expired: 5))
        let wording = InUnits(denomination: usdc)
        #expect(
            refusal.description(in: wording)
                == "insufficient funds: need 9.00 USDC, spendable 2.50 USDC (also held: 1.00 USDC paid out and awaiting receipts; 0.000005 USDC expired)"
        )
        #expect(
            refusal.description
                == "insufficient funds: need 9000000, spendable 2500000 (also held: 1000000 paid out and awaiting receipts; 5 expired)"
        )
        let exposure = ProtocolError(
            .exposureExceeded(issuer: .zero, asset: .zero, requested: 7, remaining: 3))
        #expect(
            exposure.description(in: wording)
                == "accepting 0.000007 USDC more from issuer \(Address.zero) (asset \(Address.zero)) exceeds its remaining cap 0.000003 USDC"
        )
        #expect(exposure.description.contains("accepting 7 more"))
    }
}

/// A front end's wording that reads every amount in one denomination.
private struct InUnits: ErrorWording {
    let denomination: Denomination
    func amount(_ amount: Amount, of asset: Address) -> String { denomination.format(amount) }
    func step(_ step: ResolvingStep) -> String { PlainWording().step(step) }
}
