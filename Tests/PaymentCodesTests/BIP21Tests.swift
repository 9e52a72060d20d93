import Testing

@testable import PaymentCodes

@Suite struct BIP21Tests {
    @Test func specExamples() throws {
        let bare = try BIP21.decode(BIP21Vectors.justAddress)
        #expect(bare.address == "175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W")
        #expect(bare.satoshis == nil && bare.label == nil && bare.message == nil)

        #expect(try BIP21.decode(BIP21Vectors.withName).label == "Luke-Jr")

        let twenty = try BIP21.decode(BIP21Vectors.amountAndName)
        #expect(twenty.satoshis == 2_030_000_000)
        #expect(twenty.label == "Luke-Jr")

        let fifty = try BIP21.decode(BIP21Vectors.withMessage)
        #expect(fifty.satoshis == 5_000_000_000)
        #expect(fifty.message == "Donation for project xyz")
        #expect(fifty.requiredUnknown.isEmpty)

        let required = try BIP21.decode(BIP21Vectors.requiredUnknown)
        #expect(
            required.requiredUnknown == [
                "req-somethingyoudontunderstand", "req-somethingelseyoudontget",
            ])
        #expect(required.explanation.contains("must not be paid"))

        let optional = try BIP21.decode(BIP21Vectors.optionalUnknown)
        #expect(optional.requiredUnknown.isEmpty)
        #expect(
            optional.otherParameters.map(\.key) == [
                "somethingyoudontunderstand", "somethingelseyoudontget",
            ])
    }

    /// Amounts are converted from decimal BTC with integers only: values that floating point
    /// gets wrong come out exact.
    @Test func exactAmounts() throws {
        let cases: [(String, UInt64)] = [
            ("0.001", 100_000), ("0.1", 10_000_000), ("0.29", 29_000_000), ("1.15", 115_000_000),
            ("0.00000001", 1), ("20.3", 2_030_000_000), ("50", 5_000_000_000),
            ("50.", 5_000_000_000),
            (".5", 50_000_000), ("0.123456780", 12_345_678), ("21000000", 2_100_000_000_000_000),
            ("0", 0),
        ]
        for (text, satoshis) in cases {
            #expect(
                try BIP21.decode("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=\(text)")
                    .satoshis == satoshis, "\(text)")
        }
    }

    @Test func refusesMalformed() {
        let bad: [(String, String)] = [
            ("bitcoin:1Boat?amount=50,000.00", "amount"),
            ("bitcoin:1Boat?amount=1e3", "amount"),
            ("bitcoin:1Boat?amount=0.000000001", "amount"),
            ("bitcoin:1Boat?amount=-1", "amount"),
            ("bitcoin:1Boat?amount=.", "amount"),
            ("bitcoin:1Boat?amount=21000000.00000001", "amount"),
            ("bitcoin:1Boat?amount=1&amount=2", "amount"),
            ("bitcoin:1Bo-at", "address"),
            ("bitcoin:1Boat?label=%E2%98", "label"),
            ("litecoin:1Boat", "scheme"),
        ]
        for (text, field) in bad {
            #expect(throws: PaymentCodeError.self, "\(text)") { try BIP21.decode(text) }
            do { _ = try BIP21.decode(text) } catch {
                #expect(error.field == field, "\(text): \(error)")
            }
        }
    }

    @Test func schemeIsCaseInsensitiveAndLightningIsNoted() throws {
        let code = try BIP21.decode(
            "BITCOIN:BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4?amount=0.0001&lightning=lnbc1xyz")
        #expect(code.address == "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")
        #expect(code.satoshis == 10_000)
        #expect(code.lightning == "lnbc1xyz")
        #expect(code.explanation.contains("0.0001 BTC (10,000 sat)"))
        #expect(code.explanation.contains("Tender cannot pay it"))
    }
}
