import Tender
import TenderTestSupport
import Testing

@testable import PaymentCodes

@Suite struct PayeeCodeTests {
    let world = World()

    @Test func aStaticCodeRoundTrips() throws {
        let code = try PayeeCode(
            payee: world.bob, asset: world.alice, domain: world.domain, name: "Ana's stall & café")
        let uri = TenderURI.encode(code)
        #expect(uri.hasPrefix("tender:\(world.bob.checksummed)?asset="))
        #expect(uri.contains("&name=Ana%27s%20stall%20%26%20caf%C3%A9"))
        #expect(try TenderURI.decodeAny(uri) == .payee(code))
        let plain = try PayeeCode(payee: world.bob, domain: world.domain)
        #expect(
            TenderURI.encode(plain)
                == "tender:\(world.bob.checksummed)?chain=31337&vault=\(world.domain.vault.checksummed)"
        )
        #expect(try TenderURI.decodeAny(TenderURI.encode(plain)) == .payee(plain))
    }

    @Test func requestsStillDecodeThroughEitherEntryPoint() throws {
        let request = try PaymentRequest(
            id: .zero, payee: world.bob, amount: 5, asset: .zero, expiry: 99, domain: world.domain)
        let uri = TenderURI.encode(request)
        #expect(try TenderURI.decodeAny(uri) == .request(request))
        #expect(try TenderURI.decode(uri) == request)
    }

    @Test func halfARequestOrANamedRequestIsRefusedByName() {
        let base =
            "tender:\(world.bob.checksummed)?chain=31337&vault=\(world.domain.vault.checksummed)"
        do {
            _ = try TenderURI.decodeAny(base + "&amount=5")
            Issue.record("accepted a request without id and exp")
        } catch { #expect(error.field == "id") }
        do {
            _ = try TenderURI.decode(
                base + "&amount=5&id=\(String(repeating: "ab", count: 32))&exp=9&name=x")
            Issue.record("accepted a name in a request")
        } catch { #expect(error.field == "name") }
        do {
            _ = try TenderURI.decodeAny(base + "&name=" + String(repeating: "x", count: 65))
            Issue.record("accepted a 65-byte name")
        } catch { #expect(error.kind == .tooLarge) }
        do {
            _ = try TenderURI.decodeAny("tender:\(world.bob.checksummed)?name=x")
            Issue.record("accepted a code without chain")
        } catch { #expect(error.field == "chain") }
    }

    @Test func scanningAStaticCodeSaysThePayerChoosesTheAmount() throws {
        let code = try PayeeCode(payee: world.bob, domain: world.domain, name: "Ana")
        let scanned = ScannedCode.recognize(Array(TenderURI.encode(code).utf8))
        #expect(scanned == .tenderPayee(code))
        #expect(scanned.isPayableByTender)
        #expect(scanned.explanation.contains("Ana: "))
        #expect(scanned.explanation.contains("payer chooses the amount"))
    }
}
