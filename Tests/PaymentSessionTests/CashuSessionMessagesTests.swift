import Codecs
import Noise
import PaymentSession
import Testing

/// Cashu in the payment session (Docs/PROTOCOL.md §10.3): the payer asks for the payee's
/// terms, offers a token, and is told it was taken; each message read strictly. The hello is
/// as it was, so older payers read it.
@Suite struct CashuSessionMessagesTests {
    let payeeKey = NoisePrivateKey()
    let hello = Hello(request: [], evidence: [])
    let terms = CashuTerms(
        mints: ["https://mint.example", "http://10.0.2.2:3338"], units: ["sat", "usd"],
        lockKey: [0x02] + Array(repeating: 0x11, count: 32), lockedOnly: true,
        signature: Array(repeating: 0x22, count: 64) + [27])
    let token = Offer(.cashu("cashuBo2FteBxodHRwczovL21pbnQuZXhhbXBsZQ"))
    let taken = Answer(
        .cashuTaken(CashuTaken(amount: 21, unit: "sat", mint: "https://mint.example")))

    /// `offer` from the payer to the payee, its answer `answer` back.
    func exchange(
        _ offer: Offer, _ answer: Answer, payer: inout PayerSession, payee: inout PayeeSession
    ) throws {
        let messages = try payer.send(offer)
        guard messages.count == 1,
            case .offer(let offered) = try payee.receive(messages[0], hello: { hello })
        else {
            Issue.record("the offer fits one message")
            return
        }
        #expect(offered == offer)
        #expect(try payer.receive(try payee.answer(answer)) == .answer(answer))
    }

    @Test func termsThenATokenGoThroughAnXXSession() throws {
        var payer = try PayerSession(maxMessageBytes: 1 << 20)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: 1 << 20)
        guard case .reply(let second) = try payee.receive(try payer.open(), hello: { hello }) else {
            Issue.record("XX's first message is answered with the hello")
            return
        }
        #expect(try payer.receive(second) == .hello(hello))
        try exchange(
            Offer(.cashuTermsAsked), Answer(.cashuTerms(terms)), payer: &payer, payee: &payee)
        try exchange(token, taken, payer: &payer, payee: &payee)
        // The same token again (after a link lost once it left): a refusal answers.
        try exchange(
            token, Answer(.refused(code: "exists", reason: "taken already")), payer: &payer,
            payee: &payee)
    }

    /// The mutation sweep for the Cashu kinds: every flipped bit and every cut of each Cashu
    /// offer (a question, a token) and of each Cashu answer (terms, taken) is refused by the
    /// side that receives it, as for payments (`PaymentSessionTests`).
    @Test func everyFlippedBitAndEveryCutOfEachCashuMessageIsRefused() throws {
        let payments = PaymentSessionTests()
        for offer in [Offer(.cashuTermsAsked), token] {
            let sample = try payments.offerChanged(offer) { $0 }
            #expect(try sample.result.get() == .offer(offer))
            for index in 0..<(sample.offerBytes * 9) {
                #expect(throws: SessionError.self) {
                    try payments.offerChanged(offer) { mutate($0, index) }.result.get()
                }
            }
        }
        for (offer, answer) in [
            (Offer(.cashuTermsAsked), Answer(.cashuTerms(terms))), (token, taken),
        ] {
            let size = try answerChanged(offer, answer) { $0 }
            #expect(size.refused == false)
            for index in 0..<(size.bytes * 9) {
                #expect(try answerChanged(offer, answer) { mutate($0, index) }.refused)
            }
        }
    }

    /// An XX session where the payee answers `offer` with `answer`, changed by `change` on its
    /// way: its size, and whether the payer refused it.
    func answerChanged(
        _ offer: Offer, _ answer: Answer, _ change: ([UInt8]) -> [UInt8]
    ) throws -> (bytes: Int, refused: Bool) {
        var payer = try PayerSession(maxMessageBytes: 1 << 20)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: 1 << 20)
        guard case .reply(let second) = try payee.receive(try payer.open(), hello: { hello })
        else { throw SessionError.unexpected("no hello") }
        _ = try payer.receive(second)
        for message in try payer.send(offer) { _ = try payee.receive(message, hello: { hello }) }
        let reply = try payee.answer(answer)
        do { _ = try payer.receive(change(reply)) } catch { return (reply.count, true) }
        return (reply.count, false)
    }

    @Test func eachMessageReadsBackAsWritten() throws {
        #expect(try Offer.decode(token.encoded) == token)
        #expect(try Offer.decode(Offer(.cashuTermsAsked).encoded) == Offer(.cashuTermsAsked))
        #expect(try Answer.decode(taken.encoded) == taken)
        #expect(try Answer.decode(Answer(.cashuTerms(terms)).encoded) == Answer(.cashuTerms(terms)))
        // The signature covers the session key and keys 1 to 4, after a label of its own.
        let session = Array(repeating: UInt8(0x5E), count: 32)
        let label = Array("tender/2 cashu terms\n".utf8)
        let signed = terms.signedBytes(sessionKey: session)
        #expect(Array(signed.prefix(label.count + 32)) == label + session)
        #expect(terms.signedBytes(sessionKey: Array(repeating: 0x5F, count: 32)) != signed)
        var other = terms
        other.lockedOnly = false
        #expect(other.signedBytes(sessionKey: session) != signed)
        other = terms
        other.units = ["sat"]
        #expect(other.signedBytes(sessionKey: session) != signed)
        other = terms
        other.signature = Array(repeating: 0x33, count: 65)
        #expect(other.signedBytes(sessionKey: session) == signed)
    }

    /// An answer carrying terms with `entries`.
    func answer(terms entries: [CBOR.Entry]) -> [UInt8] {
        CBOR.map([CBOR.Entry(.unsigned(2), .array([])), CBOR.Entry(.unsigned(5), .map(entries))])
            .encoded()
    }

    var termsEntries: [CBOR.Entry] {
        [
            CBOR.Entry(.unsigned(1), .array([.text("https://mint.example")])),
            CBOR.Entry(.unsigned(2), .array([.text("sat")])),
            CBOR.Entry(.unsigned(3), .bytes([0x02] + Array(repeating: 1, count: 32))),
            CBOR.Entry(.unsigned(4), .boolean(false)),
            CBOR.Entry(.unsigned(5), .bytes(Array(repeating: 2, count: 65))),
        ]
    }

    @Test func malformedTermsAndMessagesAreRefusedNamingWhatIsWrong() throws {
        guard case .cashuTerms(let read) = try Answer.decode(answer(terms: termsEntries)).content
        else {
            Issue.record("terms read as terms")
            return
        }
        #expect(read.mints == ["https://mint.example"] && read.units == ["sat"])
        func refused(_ change: (inout [CBOR.Entry]) -> Void, _ words: String) {
            var entries = termsEntries
            change(&entries)
            #expect {
                try Answer.decode(answer(terms: entries))
            } throws: { error in
                "\(error)".contains(words)
            }
        }
        refused({ $0[2] = CBOR.Entry(.unsigned(3), .bytes([2, 3])) }, "lock key is 2 bytes")
        refused({ $0[3] = CBOR.Entry(.unsigned(4), .unsigned(1)) }, "not true or false")
        refused({ $0[4] = CBOR.Entry(.unsigned(5), .bytes([1])) }, "signature is 1 bytes")
        refused({ $0.append(CBOR.Entry(.unsigned(6), .null)) }, "unknown key")
        refused({ $0.remove(at: 0) }, "(key 1) is missing")
        refused(
            { $0[0] = CBOR.Entry(.unsigned(1), .array(Array(repeating: .text("m"), count: 17))) },
            "at most 16")
        refused(
            {
                $0[1] = CBOR.Entry(.unsigned(2), .array([.text(String(repeating: "u", count: 17))]))
            },
            "at most 16 bytes")
        // Two contents in one offer; a token that is not text; a question that is not null.
        for offer in [
            [CBOR.Entry(.unsigned(1), .bytes([1])), CBOR.Entry(.unsigned(4), .text("cashuB"))],
            [CBOR.Entry(.unsigned(4), .text("cashuB")), CBOR.Entry(.unsigned(5), .null)],
            [CBOR.Entry(.unsigned(4), .bytes([1]))], [CBOR.Entry(.unsigned(5), .unsigned(0))],
        ] {
            let bytes = CBOR.map([CBOR.Entry(.unsigned(2), .array([]))] + offer).encoded()
            #expect(throws: SessionError.self) { try Offer.decode(bytes) }
        }
        let negative = CBOR.map([
            CBOR.Entry(.unsigned(2), .array([])),
            CBOR.Entry(
                .unsigned(4),
                .map([
                    CBOR.Entry(.unsigned(1), .negative(0)), CBOR.Entry(.unsigned(2), .text("sat")),
                    CBOR.Entry(.unsigned(3), .text("m")),
                ])),
        ]).encoded()
        #expect(throws: SessionError.self) { try Answer.decode(negative) }
        // A hello with anything beside its request and evidence is what it always was: refused.
        let helloWithMore = CBOR.map([
            CBOR.Entry(.unsigned(1), .bytes([])), CBOR.Entry(.unsigned(2), .array([])),
            CBOR.Entry(.unsigned(3), .null),
        ]).encoded()
        #expect(throws: SessionError.self) { try Hello.decode(helloWithMore) }
    }
}
