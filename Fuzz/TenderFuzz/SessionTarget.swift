import Noise
import PaymentSession

/// The payment session (Docs/PROTOCOL.md §10.3): what a stranger's radio sends a payee or a
/// payer, from the first byte of the handshake to the plaintext inside it.
enum SessionTarget {
    static let session = FuzzTarget(
        name: "session",
        summary:
            "session plaintext (hello, offer, answer) round trips; raw first messages; a genuine session altered is refused",
        run: check,
        seeds: {
            [
                [0x00] + hello.encoded, [0x00] + offer.encoded, [0x00] + answer.encoded,
                [0x00] + cashuTerms.encoded, [0x00] + cashuOffer.encoded,
                [0x00] + cashuTaken.encoded, [0x00] + cashuAsked.encoded,
                [0x01, 0x01] + [UInt8](repeating: 0x09, count: 32), [0x02],
                [0x02, 0x02, 0x00, 0x10, 0x80],
            ]
        })

    static let payeeKey = try! NoisePrivateKey(
        rawRepresentation: [UInt8](repeating: 0x5e, count: 32))
    static let limit = SessionMessages.maxMessageBytes
    static let hello = Hello(
        request: [UInt8](repeating: 0xA1, count: 120),
        evidence: [[UInt8](repeating: 0xE5, count: 40)])
    static let offer = Offer(.payment([UInt8](repeating: 0xB2, count: 300)))
    static let answer = Answer(.receipt([UInt8](repeating: 0xC3, count: 90)))
    static let cashuTerms = Answer(
        .cashuTerms(
            CashuTerms(
                mints: ["https://mint.example"], units: ["sat"],
                lockKey: [0x02] + [UInt8](repeating: 0x11, count: 32),
                lockedOnly: true, signature: [UInt8](repeating: 0x22, count: 64) + [27])))
    static let cashuAsked = Offer(.cashuTermsAsked)
    static let cashuOffer = Offer(.cashu("cashuBo2FteBxodHRwczovL21pbnQuZXhhbXBsZQ"))
    static let cashuTaken = Answer(
        .cashuTaken(CashuTaken(amount: 21, unit: "sat", mint: "https://mint.example")))

    /// Byte 0 picks the mode: plaintext, a first message, or a genuine session altered.
    static func check(_ bytes: [UInt8]) {
        guard let mode = bytes.first else { return }
        let input = Array(bytes.dropFirst())
        switch mode % 3 {
        case 0: plaintext(input)
        case 1: firstMessages(input)
        default: alteredSession(input)
        }
    }

    /// What decodes as a hello, an offer or an answer encodes back to the input.
    static func plaintext(_ input: [UInt8]) {
        if let hello = try? Hello.decode(input) {
            require(hello.encoded == input, "a hello re-encodes differently")
        }
        if let offer = try? Offer.decode(input) {
            require(offer.encoded == input, "an offer re-encodes differently")
        }
        if let answer = try? Answer.decode(input) {
            require(answer.encoded == input, "an answer re-encodes differently")
        }
    }

    /// The input as a payer's first message to a fresh payee, and as the payee's reply to a
    /// payer that opened: only an XX opening (the pattern byte and a 32-byte key, nothing
    /// else) can be taken without a key; a refused session takes nothing after.
    static func firstMessages(_ input: [UInt8]) {
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: limit)
        var helloAsked = false
        do {
            let event = try payee.receive(input) {
                helloAsked = true
                return hello
            }
            require(
                input.first == 0x01 && input.count == 33 && helloAsked,
                "a first message other than an XX opening was taken: \(event)")
        } catch {
            let again = try? payee.receive([0x01] + [UInt8](repeating: 9, count: 32)) { hello }
            require(again == nil, "a payee that refused a first message took another")
        }
        var payer = try! PayerSession(maxMessageBytes: limit)
        _ = try! payer.open()
        require((try? payer.receive(input)) == nil, "a payer took a reply nobody could make")
    }

    /// A genuine XX session whose messages (opening, hello, offer, answer) the input alters:
    /// with nothing altered both sides see exactly what the other sent; with anything
    /// altered, some side refuses before an altered message is taken as sent.
    static func alteredSession(_ input: [UInt8]) {
        let edits = Alterations(input, messages: 4)
        var altered = false
        func deliver(_ message: [UInt8], _ index: Int) -> [UInt8] {
            let (bytes, changed) = edits.apply(to: message, index: index)
            altered = altered || changed
            return bytes
        }
        var payer = try! PayerSession(maxMessageBytes: limit)
        var payee = PayeeSession(staticKey: payeeKey, maxMessageBytes: limit)
        do throws(SessionError) {
            let opening = deliver(try payer.open(), 0)
            guard case .reply(let reply) = try payee.receive(opening, hello: { hello }) else {
                return require(false, "XX opening not answered with a hello")
            }
            guard case .hello(let heard) = try payer.receive(deliver(reply, 1)) else {
                return require(false, "the payer did not hear a hello")
            }
            require(heard == hello, "the payer heard another hello")
            var offered: Offer?
            for (number, message) in try payer.send(offer).enumerated() {
                let bytes = number == 0 ? deliver(message, 2) : message
                if case .offer(let got) = try payee.receive(bytes, hello: { hello }) {
                    offered = got
                }
            }
            require(
                offered == offer, "the payee took another offer: \(String(describing: offered))")
            guard case .answer(let got) = try payer.receive(deliver(try payee.answer(answer), 3))
            else { return require(false, "the payer heard no answer") }
            require(got == answer, "the payer took another answer")
            require(!altered, "an altered session went through")
        } catch {
            require(altered, "a genuine session failed: \(error)")
        }
    }
}
