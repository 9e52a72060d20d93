import Tender
import TenderTestSupport
import Testing

@testable import PaymentCodes

@Suite struct ScannedCodeTests {
    let world = World()

    func scan(_ text: String) -> ScannedCode { ScannedCode.recognize(Array(text.utf8)) }

    var request: PaymentRequest {
        try! PaymentRequest(
            id: try! Bytes32([UInt8](repeating: 7, count: 32)), payee: world.bob, amount: 250,
            asset: .zero, memo: "lunch", expiry: world.expiry, domain: world.domain)
    }

    @Test func recognisesTenderRequests() {
        let uri = TenderURI.encode(request)
        guard case .tenderRequest(let decoded) = scan(uri + "\r\n") else {
            Issue.record("not recognised: \(scan(uri))")
            return
        }
        #expect(decoded == request)
        let code = scan(uri)
        #expect(code.isPayableByTender)
        #expect(code.explanation.contains("pay 250 base units of the native coin"))
        #expect(code.explanation.contains("2027-01-16 08:00:00 UTC"))
        #expect(code.explanation.hasSuffix("Tender can pay it."))
    }

    @Test func recognisesTheRawPayloadPrefix() {
        let payload = Envelope(domain: world.domain, message: .request(request)).encoded()
        #expect(Array(payload.prefix(3)) == ScannedCode.payloadPrefix)
        let code = ScannedCode.recognize(payload)
        #expect(code == .tenderPayload(payload))
        #expect(code.isPayableByTender)
        #expect(code.explanation.contains("Tender request"))
        #expect(code.explanation.contains("250 base units"))

        let garbage: [UInt8] = [0xD9, 0xD9, 0xF7, 0xFF, 0x00]
        #expect(ScannedCode.recognize(garbage) == .tenderPayload(garbage))
        #expect(ScannedCode.recognize(garbage).explanation.contains("does not decode"))
    }

    @Test func recognisesOtherFormatsAndSaysTheyAreNotPayable() {
        let cases: [(String, String)] = [
            (BIP21Vectors.withValidAddress(BIP21Vectors.withMessage), "50 BTC (5,000,000,000 sat)"),
            (EIP681Vectors.native, "2.014 of the native coin"),
            (EIP681Vectors.erc20, "ERC-20"),
            (BOLT11Vectors.valid[1].invoice, "250000 sat"),
            ("lightning:" + BOLT11Vectors.valid[1].invoice, "250000 sat"),
            (BOLT11Vectors.valid[12].invoice, "2500000 sat"),
            (NUT00Vectors.v3, "10 sat"),
            ("cashu:" + NUT00Vectors.v4, "4 sat"),
        ]
        for (text, amount) in cases {
            let code = scan(text)
            if case .unknown = code { Issue.record("not recognised: \(text.prefix(40))") }
            #expect(!code.isPayableByTender)
            #expect(code.explanation.contains(amount), "\(code.explanation)")
            // Not payable by Tender's notes; a Cashu token goes to Tender's Cashu wallet.
            let said = code.isCashuToken ? "Tender's Cashu wallet takes it" : "Tender cannot"
            #expect(code.explanation.contains(said), "\(code.explanation)")
        }
        guard case .bip21 = scan(BIP21Vectors.withValidAddress(BIP21Vectors.withMessage)),
            case .eip681 = scan(EIP681Vectors.erc20),
            case .bolt11 = scan(BOLT11Vectors.valid[0].invoice), case .cashu = scan(NUT00Vectors.v4)
        else {
            Issue.record("wrong case")
            return
        }
    }

    @Test func malformedCodesAreUnknownWithTheReason() {
        let broken = TenderURI.encode(request).replacing("amount=250", with: "amount=2.5")
        let cases: [(String, String)] = [
            (broken, "a tender: payment request but is not valid: amount:"),
            (
                "bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1,5",
                "a bitcoin: URI (BIP21) but is not valid: amount:"
            ),
            (
                "ethereum:0x12?value=1",
                "an ethereum: URL (EIP-681) but is not valid: target_address:"
            ),
            (
                BOLT11Vectors.invalid[1].invoice,
                "a Lightning invoice (BOLT11) but is not valid: checksum:"
            ),
            ("cashuAnotbase64!", "a Cashu token but is not valid: token:"),
        ]
        for (text, reason) in cases {
            let code = scan(text)
            #expect(code == .unknown(text))
            #expect(code.problem != nil)
            #expect(code.explanation.hasPrefix("Looks like " + reason), "\(code.explanation)")
            #expect(code.explanation.hasSuffix("Tender cannot pay it."))
        }
    }

    @Test func unknownTextAndBinary() {
        let text = scan("hello world")
        #expect(text == .unknown("hello world"))
        #expect(text.explanation.hasPrefix("Not a payment code Tender recognises"))
        #expect(text.problem == nil)
        #expect(scan("lnurl1dp68gurn8ghj7").explanation.hasPrefix("Not a payment code"))

        let binary = ScannedCode.recognize([0xFF, 0xFE, 0x00, 0x80])
        guard case .unknown = binary else {
            Issue.record("binary recognised as \(binary)")
            return
        }
        #expect(binary.explanation.hasPrefix("Binary data"))
        #expect(ScannedCode.recognize([]).explanation.hasPrefix("Not a payment code"))
    }
}
