import Testing

@testable import PaymentCodes

@Suite struct BIP21Tests {
    /// BIP21's example address fails its checksum: every example is refused, naming it.
    @Test func specExamplesAreRefusedForTheirDamagedAddress() {
        for uri in BIP21Vectors.all {
            do {
                _ = try BIP21.decode(uri)
                Issue.record("accepted \(uri)")
            } catch {
                #expect(error.kind == .badChecksum && error.field == "address", "\(error)")
            }
            let scanned = ScannedCode.recognize(uri)
            #expect(scanned == .unknown(uri))
            #expect(scanned.problem?.kind == .badChecksum)
            #expect(scanned.explanation.contains("damaged or mistyped and must not be paid"))
        }
    }

    @Test func specExamples() throws {
        func decode(_ uri: String) throws -> BIP21 {
            try BIP21.decode(BIP21Vectors.withValidAddress(uri))
        }
        let bare = try decode(BIP21Vectors.justAddress)
        #expect(bare.address == BIP21Vectors.validAddress)
        #expect(bare.bitcoinAddress?.kind == .p2pkh && bare.bitcoinAddress?.network == .mainnet)
        #expect(bare.satoshis == nil && bare.label == nil && bare.message == nil)

        #expect(try decode(BIP21Vectors.withName).label == "Luke-Jr")

        let twenty = try decode(BIP21Vectors.amountAndName)
        #expect(twenty.satoshis == 2_030_000_000)
        #expect(twenty.label == "Luke-Jr")

        let fifty = try decode(BIP21Vectors.withMessage)
        #expect(fifty.satoshis == 5_000_000_000)
        #expect(fifty.message == "Donation for project xyz")
        #expect(fifty.requiredUnknown.isEmpty)

        let required = try decode(BIP21Vectors.requiredUnknown)
        #expect(
            required.requiredUnknown == [
                "req-somethingyoudontunderstand", "req-somethingelseyoudontget",
            ])
        #expect(required.explanation.contains("must not be paid"))

        let optional = try decode(BIP21Vectors.optionalUnknown)
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
            ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=50,000.00", "amount"),
            ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1e3", "amount"),
            ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=0.000000001", "amount"),
            ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=-1", "amount"),
            ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=.", "amount"),
            ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=21000000.00000001", "amount"),
            ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1&amount=2", "amount"),
            ("bitcoin:1Bo-at", "address"),
            ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?label=%E2%98", "label"),
            ("litecoin:1Boat", "scheme"),
            ("bitcoin:1Boat", "address"),
            ("bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5?amount=1", "address"),
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
        #expect(code.explanation.contains("P2WPKH on mainnet, bech32 checksum correct"))
        #expect(code.explanation.contains("Tender cannot pay it"))
    }

    /// A one-character typo in a segwit address breaks its bech32 checksum: refused by name,
    /// and the explanation says not to pay it.
    @Test func aTypoInTheAddressIsNamed() {
        let good = "bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.01"
        #expect(throws: Never.self) { try BIP21.decode(good) }
        let typo = good.replacing("kv8f3t4", with: "kv8f3t5")
        do {
            _ = try BIP21.decode(typo)
            Issue.record("accepted \(typo)")
        } catch {
            #expect(error.kind == .badChecksum && error.field == "address")
        }
        let scanned = ScannedCode.recognize(typo)
        #expect(
            scanned.explanation.hasPrefix(
                "Looks like a bitcoin: URI (BIP21) but is not valid: address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5' fails its bech32 checksum: the address is damaged or mistyped and must not be paid"
            ), "\(scanned.explanation)")
    }
}
