import Tender
import TenderTestSupport
import Testing

@testable import PaymentCodes

/// The facts `tender scan --json` adds: kind, network, exact amount, expiry, checks made and
/// why a code was refused.
@Suite struct ScanReportTests {
    let world = World()
    let baseUnits: (Domain, Address) -> Denomination = { _, _ in .baseUnits }

    func report(_ text: String, now: UInt64? = nil) -> ScanReport {
        ScannedCode.recognize(text).report(now: now, units: baseUnits)
    }

    @Test func kindsOfEveryFormat() throws {
        let request = try PaymentRequest(
            id: try Bytes32([UInt8](repeating: 7, count: 32)), payee: world.bob, amount: 250,
            asset: .zero, memo: "", expiry: world.expiry, domain: world.domain)
        let cases: [(String, String)] = [
            (TenderURI.encode(request), "tender-request"),
            (BIP21Vectors.withValidAddress(BIP21Vectors.withMessage), "bip21"),
            (EIP681Vectors.native, "eip681"),
            (BOLT11Vectors.valid[1].invoice, "bolt11"),
            (NUT00Vectors.v4, "cashu-token"),
            (NUT26Vectors.valid[0].encoded, "cashu-request"),
            ("hello", "unknown"),
        ]
        for (text, kind) in cases {
            #expect(report(text).kind == kind, "\(text.prefix(30))")
            #expect(report(text).json["kind"] as? String == kind)
        }
        let payload = Envelope(domain: world.domain, message: .request(request)).encoded()
        let fromPayload = ScannedCode.recognize(payload).report(
            now: world.expiry + 1, units: baseUnits)
        #expect(fromPayload.kind == "tender-payload")
        #expect(
            fromPayload.amount == PaymentAmount(value: "250", unit: "base units", baseUnits: "250"))
        #expect(fromPayload.expired == true)

        let tender = ScannedCode.recognize(TenderURI.encode(request))
        let live = tender.report(now: world.expiry - 60, units: baseUnits)
        #expect(live.network == String(world.domain.chainID))
        #expect(live.expiresAt == world.expiry && live.expired == false)
        let late = tender.explanation(now: world.expiry + 300, units: baseUnits)
        #expect(late.contains("expired at 2027-01-16 08:00:00 UTC (5 min ago)"), "\(late)")
        #expect(late.hasSuffix("It has expired: it can no longer be paid."))
    }

    @Test func bitcoinFacts() {
        let uri =
            "bitcoin:tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c?amount=0.0025"
        let facts = report(uri)
        #expect(facts.network == "testnet")
        #expect(facts.amount == PaymentAmount(value: "0.0025", unit: "BTC", baseUnits: "250000"))
        #expect(
            facts.verdicts == [
                ScanVerdict(
                    check: "address-checksum", ok: true,
                    detail: "bech32m checksum of a P2TR address")
            ])
        #expect(facts.expiresAt == nil && facts.expired == nil && facts.problem == nil)
        let json = facts.json
        #expect(
            (json["amount"] as? [String: String]) == [
                "value": "0.0025", "unit": "BTC", "baseUnits": "250000",
            ])
        #expect(json["expiresAt"] == nil && json["problem"] == nil)

        let invoice = report(BOLT11Vectors.valid[10].invoice)
        #expect(invoice.network == "mainnet")
        #expect(
            invoice.amount
                == PaymentAmount(value: "967878.534", unit: "sat", baseUnits: "967878534"))
    }

    @Test func refusedCodesCarryTheirProblem() {
        let typo = "bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"
        let facts = report(typo)
        #expect(facts.kind == "unknown")
        #expect(facts.problem?.kind == .badChecksum && facts.problem?.field == "address")
        #expect(facts.verdicts.first?.ok == false)
        let problem = facts.json["problem"] as? [String: String]
        #expect(problem?["code"] == "bad-checksum" && problem?["field"] == "address")
        #expect(problem?["message"]?.contains("must not be paid") == true)
        #expect(report("hello").problem == nil)
    }

    @Test func ethereumAndCashuAmounts() {
        let eth = report("ethereum:0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359@8453?value=2.014e18")
        #expect(eth.network == "8453")
        #expect(
            eth.amount
                == PaymentAmount(value: "2.014", unit: "ETH", baseUnits: "2014000000000000000"))
        #expect(eth.verdicts.map(\.ok) == [true])

        let usd = NUT26Vectors.valid.first { $0.title.contains("usd") }!.encoded
        #expect(report(usd).amount == PaymentAmount(value: "5.00", unit: "usd", baseUnits: "500"))
        #expect(
            report(NUT00Vectors.v3).amount
                == PaymentAmount(value: "10", unit: "sat", baseUnits: "10"))
    }

    @Test func iso8601() {
        #expect(ScanReport.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(ScanReport.iso8601(1_496_314_658) == "2017-06-01T10:57:38Z")
    }
}
