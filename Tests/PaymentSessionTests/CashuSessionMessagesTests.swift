import Codecs
import Noise
import PaymentSession
import Testing

/// Cashu in the payment session (Docs/PROTOCOL.md §10.3): the payee's terms in its hello, a
/// token offered, the token taken; each read strictly.
@Suite struct CashuSessionMessagesTests {
    let payeeKey = NoisePrivateKey()
    let terms = CashuTerms(
        mints: ["https://mint.example", "http://10.0.2.2:3338"],
        lockKey: [0x02] + Array(repeating: 0x11, count: 32), lockedOnly: true,
        signature: Array(repeating: 0x22, count: 64) + [27])
    let token = Offer(.cashu("cashuBo2FteBxodHRwczovL21pbnQuZXhhbXBsZQ"))
    let taken = Answer(
        .cashuTaken(CashuTaken(amount: 21, unit: "sat", mint: "https://mint.example")))

    @Test func aTokenGoesThroughAnXXSessionAndItsAnswerComesBack() throws {
        let hello = Hello(request: [], evidence: [], cashu: terms)
        var payer = try PayerSession(maxMessageBytes: 1 << 20)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: 1 << 20)
        guard case .reply(let second) = try payee.receive(try payer.open(), hello: { hello }) else {
            Issue.record("XX's first message is answered with the hello")
            return
        }
        #expect(try payer.receive(second) == .hello(hello))
        let messages = try payer.send(token)
        guard messages.count == 1,
            case .offer(let offered) = try payee.receive(messages[0], hello: { hello })
        else {
            Issue.record("the token fits XX's last handshake message")
            return
        }
        #expect(offered == token)
        #expect(try payer.receive(try payee.answer(taken)) == .answer(taken))
        // The payer may offer again (the same token, after a failed link): a refusal answers.
        let again = try payer.send(token)
        guard case .offer = try payee.receive(again[0], hello: { hello }) else {
            Issue.record("a second token offer is taken as an offer")
            return
        }
        let refused = Answer(.refused(code: "exists", reason: "taken already"))
        #expect(try payer.receive(try payee.answer(refused)) == .answer(refused))
    }

    @Test func eachMessageReadsBackAsWritten() throws {
        for hello in [Hello(request: [1], cashu: terms), Hello(request: [1])] {
            #expect(try Hello.decode(hello.encoded) == hello)
        }
        #expect(try Offer.decode(token.encoded) == token)
        #expect(try Answer.decode(taken.encoded) == taken)
        // The signature covers keys 1 to 3 of the terms, after a label of its own.
        let label = Array("tender/2 cashu terms\n".utf8)
        #expect(Array(terms.signedBytes.prefix(label.count)) == label)
        var other = terms
        other.lockedOnly = false
        #expect(other.signedBytes != terms.signedBytes)
        other = terms
        other.signature = Array(repeating: 0x33, count: 65)
        #expect(other.signedBytes == terms.signedBytes)
    }

    /// Maps with one field replaced (`key` of the terms, or of the message).
    func hello(terms entries: [CBOR.Entry]) -> [UInt8] {
        CBOR.map([
            CBOR.Entry(.unsigned(1), .bytes([])), CBOR.Entry(.unsigned(2), .array([])),
            CBOR.Entry(.unsigned(3), .map(entries)),
        ]).encoded()
    }

    var termsEntries: [CBOR.Entry] {
        [
            CBOR.Entry(.unsigned(1), .array([.text("https://mint.example")])),
            CBOR.Entry(.unsigned(2), .bytes([0x02] + Array(repeating: 1, count: 32))),
            CBOR.Entry(.unsigned(3), .boolean(false)),
            CBOR.Entry(.unsigned(4), .bytes(Array(repeating: 2, count: 65))),
        ]
    }

    @Test func malformedTermsAndMessagesAreRefusedNamingWhatIsWrong() throws {
        #expect(
            try Hello.decode(hello(terms: termsEntries)).cashu?.mints == ["https://mint.example"])
        func refused(_ change: (inout [CBOR.Entry]) -> Void, _ words: String) {
            var entries = termsEntries
            change(&entries)
            #expect {
                try Hello.decode(hello(terms: entries))
            } throws: { error in
                "\(error)".contains(words)
            }
        }
        refused({ $0[1] = CBOR.Entry(.unsigned(2), .bytes([2, 3])) }, "lock key is 2 bytes")
        refused({ $0[2] = CBOR.Entry(.unsigned(3), .unsigned(1)) }, "not true or false")
        refused({ $0[3] = CBOR.Entry(.unsigned(4), .bytes([1])) }, "signature is 1 bytes")
        refused({ $0.append(CBOR.Entry(.unsigned(5), .null)) }, "unknown key")
        refused({ $0.remove(at: 0) }, "(key 1) is missing")
        refused(
            { $0[0] = CBOR.Entry(.unsigned(1), .array(Array(repeating: .text("m"), count: 17))) },
            "at most 16")
        // A token and a payment in one offer; a token that is not text.
        let both = CBOR.map([
            CBOR.Entry(.unsigned(1), .bytes([1])), CBOR.Entry(.unsigned(2), .array([])),
            CBOR.Entry(.unsigned(4), .text("cashuB")),
        ]).encoded()
        #expect(throws: SessionError.self) { try Offer.decode(both) }
        let bytes = CBOR.map([
            CBOR.Entry(.unsigned(2), .array([])), CBOR.Entry(.unsigned(4), .bytes([1])),
        ]).encoded()
        #expect(throws: SessionError.self) { try Offer.decode(bytes) }
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
    }
}
