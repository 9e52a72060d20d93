import Codecs
import Testing

@testable import PaymentCodes

@Suite struct BOLT11Tests {
    let hash0102 = "0001020304050607080900010203040506070809000102030405060708090102"
    let secret11 = String(repeating: "11", count: 32)

    func invoice(_ index: Int) throws -> BOLT11 {
        try BOLT11.decode(BOLT11Vectors.valid[index].invoice)
    }

    @Test func everyValidSpecExampleDecodes() throws {
        for (title, text) in BOLT11Vectors.valid {
            let code = try BOLT11.decode(text)
            #expect(code.signature.count == 65, "\(title)")
            #expect(code.paymentHash.count == 32, "\(title)")
        }
    }

    @Test func donationOfAnyAmount() throws {
        let code = try invoice(0)
        #expect(code.network == .bitcoin)
        #expect(code.millisatoshis == nil)
        #expect(code.timestamp == 1_496_314_658)
        #expect(Hex.encode(code.paymentHash, prefix: false) == hash0102)
        #expect(code.paymentSecret.map { Hex.encode($0, prefix: false) } == secret11)
        #expect(code.invoiceDescription == "Please consider supporting this project")
        #expect(code.features == [8, 14])
        #expect(code.expiry == nil && code.effectiveExpiry == 3600)
        // Signature breakdown in the spec: r ‖ s, then recovery flag 1.
        #expect(
            Hex.encode(code.signature, prefix: false)
                == "8d3ce9e28357337f62da0162d9454df827f83cfe499aeb1c1db349d4d81127425e434ca29929406c23bba1ae8ac6ca32880b38d4bf6ff874024cac34ba9625f101"
        )
        #expect(code.explanation.contains("no amount"))
        #expect(code.explanation.contains("2017-06-01 10:57:38 UTC"))
        #expect(code.explanation.contains("not verified"))
    }

    @Test func amountsAreExactMillisatoshis() throws {
        let expected: [(Int, UInt128)] = [
            (1, 250_000_000), (2, 250_000_000), (3, 2_000_000_000), (4, 2_000_000_000),
            (10, 967_878_534), (11, 2_500_000_000), (14, 1_000_000_000),
        ]
        for (index, msat) in expected {
            #expect(try invoice(index).millisatoshis == msat, "\(BOLT11Vectors.valid[index].title)")
        }
        #expect(try invoice(1).explanation.contains("250000 sat (0.0025 BTC, 250,000,000 msat)"))
        #expect(try invoice(10).explanation.contains("967878.534 sat (0.00967878534 BTC"))
    }

    @Test func taggedFields() throws {
        let coffee = try invoice(1)
        #expect(coffee.invoiceDescription == "1 cup coffee")
        #expect(coffee.expiry == 60)
        #expect(try invoice(2).invoiceDescription == "ナンセンス 1杯")

        let hashed = try invoice(3)
        #expect(hashed.invoiceDescription == nil)
        #expect(
            hashed.descriptionHash.map { Hex.encode($0, prefix: false) }
                == "3925b6f67e2c340036ed12093dd44e0368df1b6ea26c53dbe4811f58fd5db8c1")

        #expect(try invoice(4).network == .testnet)
        #expect(try invoice(4).otherFields == ["f"])
        #expect(try invoice(5).otherFields == ["f", "r"])
        for index in 6...9 { #expect(try invoice(index).otherFields == ["f"]) }

        let pico = try invoice(10)
        #expect(pico.timestamp == 1_572_468_703)
        #expect(
            Hex.encode(pico.paymentHash, prefix: false)
                == "462264ede7e14047e9b249da94fefc47f41f7d02ee9b091815a5506bc8abf75f")
        #expect(pico.expiry == 604_800)
        #expect(pico.minFinalCLTVExpiryDelta == 10)
        #expect(pico.invoiceDescription?.hasPrefix("Blockstream Store: 88.85 USD") == true)

        #expect(try invoice(11).features == [8, 14, 99])
        #expect(try invoice(14).features == [8, 14, 48])
        #expect(try invoice(14).otherFields == ["m"])
    }

    @Test func upperCaseIsTheSameInvoice() throws {
        #expect(try invoice(12) == (try invoice(11)))
        #expect(
            try BOLT11.decode("lightning:" + BOLT11Vectors.valid[11].invoice) == (try invoice(11)))
        #expect(
            try BOLT11.decode("LIGHTNING:" + BOLT11Vectors.valid[12].invoice) == (try invoice(11)))
    }

    @Test func fieldsOfWrongLengthAreSkipped() throws {
        let code = try invoice(13)
        #expect(Hex.encode(code.paymentHash, prefix: false) == hash0102)
        #expect(code.paymentSecret.map { Hex.encode($0, prefix: false) } == secret11)
        #expect(code.invoiceDescription == "coffee beans")
        #expect(code.payeeNodeID == nil)
        #expect(code.otherFields == ["2", "f", "p", "p", "h", "h", "s", "s", "n", "n"])
    }

    @Test func invalidSpecExamples() throws {
        func refusal(_ index: Int) -> PaymentCodeError? {
            do {
                _ = try BOLT11.decode(BOLT11Vectors.invalid[index].invoice)
                return nil
            } catch { return error }
        }
        #expect(refusal(0)?.kind == .unsupported && refusal(0)?.field == "9")  // feature 100
        #expect(refusal(1)?.kind == .badChecksum)
        #expect(refusal(2)?.field == "bech32")  // no '1'
        #expect(refusal(3)?.field == "bech32")  // mixed case
        #expect(refusal(5) != nil)  // too short
        #expect(refusal(6)?.field == "amount")  // multiplier x
        #expect(refusal(7)?.field == "amount")  // sub-millisatoshi
        #expect(refusal(8)?.field == "s")  // payment_secret feature without s
        // Signatures are not verified: these two are read, and the explanation says so.
        for index in [4, 9] {
            let code = try BOLT11.decode(BOLT11Vectors.invalid[index].invoice)
            #expect(code.explanation.contains("signature is not verified"))
        }
        #expect(try BOLT11.decode(BOLT11Vectors.invalid[9].invoice).payeeNodeID?.count == 33)
    }

    @Test func bech32RoundTripAndDamage() throws {
        let data: [UInt8] = [0, 1, 2, 3, 31, 30, 29]
        let text = Bech32.encode(hrp: "lnbc", data: data)
        let decoded = try Bech32.decode(text[...])
        #expect(decoded.hrp == "lnbc" && decoded.data == data)
        // Change one character: the checksum catches it.
        var damaged = Array(text.utf8)
        damaged[6] = damaged[6] == UInt8(ascii: "q") ? UInt8(ascii: "p") : UInt8(ascii: "q")
        #expect(throws: PaymentCodeError.self) {
            try Bech32.decode(String(decoding: damaged, as: UTF8.self)[...])
        }
        #expect(throws: PaymentCodeError.self) { try Bech32.decode("lnbc1qqqqqqb"[...]) }
    }

    @Test func refusesUnknownCurrency() {
        let text = Bech32.encode(hrp: "lnxx", data: [UInt8](repeating: 0, count: 120))
        do {
            _ = try BOLT11.decode(text)
            Issue.record("accepted")
        } catch { #expect(error.kind == .unsupported && error.field == "hrp") }
    }

    @Test func regtestAndAmountMultipliers() throws {
        // A minimal synthetic invoice: timestamp, one p field, a zero signature.
        let hash = [UInt8](repeating: 1, count: 52)
        let body: [UInt8] =
            [UInt8](repeating: 0, count: 7) + [1, 1, 20] + hash + [UInt8](repeating: 0, count: 104)
        let cases: [(String, UInt128?)] = [
            ("lnbcrt", nil), ("lnbcrt1", 100_000_000_000), ("lnbcrt5m", 500_000_000),
            ("lnbcrt7u", 700_000),
            ("lnbcrt9n", 900), ("lnbcrt10p", 1), ("lntbs3u", 300_000),
        ]
        for (hrp, msat) in cases {
            let code = try BOLT11.decode(Bech32.encode(hrp: hrp, data: body))
            #expect(code.millisatoshis == msat, "\(hrp)")
        }
        #expect(try BOLT11.decode(Bech32.encode(hrp: "lnbcrt", data: body)).network == .regtest)
        for hrp in ["lnbc0m", "lnbc01m", "lnbc15p", "lnbcm", "lnbc1mm"] {
            #expect(throws: PaymentCodeError.self, "\(hrp)") {
                try BOLT11.decode(Bech32.encode(hrp: hrp, data: body))
            }
        }
        // No p field at all.
        let noHash = [UInt8](repeating: 0, count: 7) + [UInt8](repeating: 0, count: 104)
        #expect(throws: PaymentCodeError.self) {
            try BOLT11.decode(Bech32.encode(hrp: "lnbc", data: noHash))
        }
    }
}

/// Whether an invoice has expired is said against the caller's clock (`now`), never read here.
@Suite struct BOLT11ExpiryTests {
    /// "Please send $3 for a cup of coffee … within one minute": created 2017-06-01 10:57:38
    /// UTC (1496314658), `x` = 60 s.
    let coffee = BOLT11Vectors.valid[1].invoice

    @Test func expiredInvoicesAreCalledExpired() throws {
        let code = ScannedCode.recognize(coffee)
        let later = code.explanation(now: 1_496_314_718 + 12 * 60, units: { _, _ in .baseUnits })
        #expect(later.contains("expired at 2017-06-01 10:58:38 UTC (12 min ago)"), "\(later)")
        #expect(later.contains("It has expired: it must not be paid."))
        let report = code.report(now: 1_496_314_718 + 12 * 60, units: { _, _ in .baseUnits })
        #expect(report.expired == true)
        #expect(report.expiresAt == 1_496_314_718)
        #expect(report.json["expiresAt"] as? String == "2017-06-01T10:58:38Z")
        #expect(report.verdicts.contains { $0.check == "expiry" && !$0.ok })
    }

    @Test func liveInvoicesSayWhenTheyExpire() throws {
        let code = ScannedCode.recognize(coffee)
        let soon = code.explanation(now: 1_496_314_678, units: { _, _ in .baseUnits })
        #expect(soon.contains("expires at 2017-06-01 10:58:38 UTC (in 40 s)"), "\(soon)")
        #expect(!soon.contains("expired"))
        let report = code.report(now: 1_496_314_678, units: { _, _ in .baseUnits })
        #expect(report.expired == false)
        #expect(report.verdicts.contains { $0.check == "expiry" && $0.ok })
        // The last second before expiry is live; expiry itself is expired (BOLT 11: after
        // timestamp + expiry the invoice must not be paid).
        let invoice = try BOLT11.decode(coffee)
        #expect(!invoice.isExpired(now: 1_496_314_717) && invoice.isExpired(now: 1_496_314_718))
        // Without a clock: when, never whether.
        #expect(
            code.explanation.contains("expires at 2017-06-01 10:58:38 UTC (60 s after creation)"))
        #expect(code.report(now: nil, units: { _, _ in .baseUnits }).expired == nil)
    }

    @Test func theDefaultExpiryIsOneHour() throws {
        let donation = try BOLT11.decode(BOLT11Vectors.valid[0].invoice)
        #expect(donation.expiresAt == 1_496_314_658 + 3600)
        let text = donation.explanation(now: 1_496_314_658 + 3 * 86_400)
        #expect(
            text.contains(
                "expired at 2017-06-01 11:57:38 UTC (2 days ago), no expiry given: BOLT 11's default of 1 hour."
            ), "\(text)")
    }
}
