import Noise
import PaymentSession
import Testing

@Suite struct PaymentSessionTests {
    let payeeKey = NoisePrivateKey()
    let hello = Hello(request: [0xA1, 1, 2], evidence: [[9, 9]])
    let small = Offer(.payment(Array(repeating: 0x42, count: 2_000)), evidence: [[7]])
    /// Larger than one handshake message can carry.
    let large = Offer(.payment(Array(repeating: 0x43, count: 150_000)))
    let receipt = Answer(.receipt([0xCA, 0xFE]), evidence: [[8]])
    static let cap = 1 << 20

    /// Delivers the payer's messages to the payee; the offer that comes out of them.
    func deliver(_ messages: [[UInt8]], to payee: inout PayeeSession) throws -> Offer? {
        var offer: Offer?
        for message in messages {
            switch try payee.receive(message, hello: { hello }) {
            case .offer(let received): offer = received
            case .waiting: continue
            case .reply: Issue.record("the payee replied where it should take an offer")
            }
        }
        return offer
    }

    @Test(arguments: [false, true])
    func xxTakesTwoRoundTripsAndCarriesEveryPart(largeOffer: Bool) throws {
        let offer = largeOffer ? large : small
        var payer = try PayerSession(maxMessageBytes: Self.cap)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: Self.cap)
        guard case .reply(let second) = try payee.receive(try payer.open(), hello: { hello }) else {
            Issue.record("XX's first message is answered with the hello")
            return
        }
        #expect(try payer.receive(second) == .hello(hello))
        let messages = try payer.send(offer)
        #expect(messages.count == (largeOffer ? 2 : 1))
        #expect(try deliver(messages, to: &payee) == offer)
        #expect(try payer.receive(try payee.answer(receipt)) == .answer(receipt))
        #expect(payer.payeeKey?.rawRepresentation == payeeKey.publicKey.rawRepresentation)

        // A second offer in the same session (the same payment again, to settle a doubt).
        #expect(try deliver(try payer.send(small), to: &payee) == small)
        let refused = Answer(.refused(code: "spent", reason: "already paid"))
        #expect(try payer.receive(try payee.answer(refused)) == .answer(refused))
    }

    @Test func ikTakesOneRoundTripWhenTheOfferFits() throws {
        var payer = try PayerSession(payeeKey: payeeKey.publicKey, maxMessageBytes: Self.cap)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: Self.cap)
        #expect(try deliver([try payer.open(with: small)], to: &payee) == small)
        #expect(try payer.receive(try payee.answer(receipt)) == .answer(receipt))
    }

    @Test func ikWithALargeOfferTakesOneMoreRoundTrip() throws {
        var payer = try PayerSession(payeeKey: payeeKey.publicKey, maxMessageBytes: Self.cap)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: Self.cap)
        guard
            case .reply(let second) = try payee.receive(
                try payer.open(with: large), hello: { hello })
        else {
            Issue.record("the payee ends the handshake when the offer did not fit")
            return
        }
        guard case .send(let records) = try payer.receive(second) else {
            Issue.record("the payer sends its held offer")
            return
        }
        #expect(try deliver(records, to: &payee) == large)
        #expect(try payer.receive(try payee.answer(receipt)) == .answer(receipt))
    }

    @Test func ikToTheWrongPayeeIsRefusedAtTheFirstMessage() throws {
        var payer = try PayerSession(
            payeeKey: NoisePrivateKey().publicKey, maxMessageBytes: Self.cap)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: Self.cap)
        let first = try payer.open(with: small)
        #expect(throws: SessionError.self) { try payee.receive(first, hello: { hello }) }
    }

    /// Runs a session up to the payer's offer, hands the payee `change(offer message)` and
    /// returns what the payee made of it; also the sizes of the hello and offer messages.
    @discardableResult
    func offerChanged(
        _ offer: Offer, _ change: ([UInt8]) -> [UInt8]
    ) throws -> (helloBytes: Int, offerBytes: Int, result: Result<PayeeSession.Event, SessionError>)
    {
        var payer = try PayerSession(maxMessageBytes: Self.cap)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: Self.cap)
        guard case .reply(let helloMessage) = try payee.receive(try payer.open(), hello: { hello })
        else { throw SessionError.unexpected("no hello") }
        _ = try payer.receive(helloMessage)
        let offerMessage = try payer.send(offer)[0]
        let result: Result<PayeeSession.Event, SessionError>
        do { result = .success(try payee.receive(change(offerMessage), hello: { hello })) } catch {
            result = .failure(error)
        }
        return (helloMessage.count, offerMessage.count, result)
    }

    @Test func everyFlippedBitAndEveryCutOfTheHelloAndTheOfferIsRefused() throws {
        let offer = Offer(.payment([1, 2, 3]))
        let sample = try offerChanged(offer) { $0 }
        #expect(try sample.result.get() == .offer(offer))
        // A fresh session for each mutation: a refused message ends a session for good.
        for index in 0..<(sample.helloBytes * 9) {
            var payer = try PayerSession(maxMessageBytes: Self.cap)
            var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: Self.cap)
            guard
                case .reply(let helloMessage) = try payee.receive(
                    try payer.open(), hello: { hello })
            else { return }
            #expect(throws: SessionError.self) { try payer.receive(mutate(helloMessage, index)) }
        }
        for index in 0..<(sample.offerBytes * 9) {
            let changed = try offerChanged(offer) { mutate($0, index) }
            #expect(throws: SessionError.self) { try changed.result.get() }
        }
    }

    /// Runs a whole exchange with `change` applied to one message (IK: the first message or
    /// the answer; XX: the sealed answer); the sizes of those messages and whether the side
    /// that received the changed one refused it.
    func exchangeChanging(
        _ which: ChangedMessage, _ change: ([UInt8]) -> [UInt8]
    ) throws -> (size: Int, refused: Bool) {
        let offer = Offer(.payment([1, 2, 3]))
        let answer = Answer(.receipt([4, 5, 6]))
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: Self.cap)
        var payer: PayerSession
        if which == .sealedAnswer {
            payer = try PayerSession(maxMessageBytes: Self.cap)
            guard case .reply(let h) = try payee.receive(try payer.open(), hello: { hello })
            else { throw SessionError.unexpected("no hello") }
            _ = try payer.receive(h)
            _ = try deliver(try payer.send(offer), to: &payee)
        } else {
            payer = try PayerSession(payeeKey: payeeKey.publicKey, maxMessageBytes: Self.cap)
            let first = try payer.open(with: offer)
            do {
                _ = try payee.receive(which == .ikFirst ? change(first) : first, hello: { hello })
            } catch { return (first.count, true) }
            if which == .ikFirst { return (first.count, false) }
        }
        let reply = try payee.answer(answer)
        do { _ = try payer.receive(change(reply)) } catch { return (reply.count, true) }
        return (reply.count, false)
    }

    enum ChangedMessage { case ikFirst, ikAnswer, sealedAnswer }

    @Test(arguments: [ChangedMessage.ikFirst, .ikAnswer, .sealedAnswer])
    func everyFlippedBitAndEveryCutOfTheAnswerAndOfIKsFirstMessageIsRefused(
        _ which: ChangedMessage
    ) throws {
        let sample = try exchangeChanging(which) { $0 }
        #expect(!sample.refused)
        for index in 0..<(sample.size * 9) {
            #expect(try exchangeChanging(which) { mutate($0, index) }.refused)
        }
    }

    @Test func outOfTurnAndGarbageEndTheSession() throws {
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: Self.cap)
        #expect(throws: SessionError.unknownPattern(0x7F)) {
            try payee.receive([0x7F, 1, 2], hello: { hello })
        }
        #expect(throws: SessionError.self) { try payee.receive([0x01], hello: { hello }) }
        var payer = try PayerSession(maxMessageBytes: Self.cap)
        #expect(throws: SessionError.self) { try payer.send(small) }
        #expect(throws: SessionError.self) { try payer.open(with: small) }
    }
}

/// Mutation `index` of `message`: a flipped bit (8 per byte), or past those a truncation.
func mutate(_ message: [UInt8], _ index: Int) -> [UInt8] {
    if index < message.count * 8 {
        var copy = message
        copy[index / 8] ^= 1 << (index % 8)
        return copy
    }
    return Array(message.prefix(index - message.count * 8))
}
