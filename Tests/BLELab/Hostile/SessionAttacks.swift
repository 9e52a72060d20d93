import BlueZ
import Bluetooth
import Crypto
import Link
import Noise
import PaymentSession

/// Attacks inside the link: sessions and payments that must not be accepted, and a payment
/// offered twice that must not be credited twice.
struct SessionAttacks {
    let target: Target
    let payment: [UInt8]

    func run() async throws {
        try await wrongStaticKey()
        try await alteredRecord()
        try await replayedRecord()
        try await forgedPayment()
        try await replayedPayment()
        try await cashuFlood()
    }

    /// Cashu offers past a session's share, to a payee that takes none: each answered
    /// `cashu-off` (a token of garbage too) up to `CashuTaking.offersPerSession`, then the link
    /// ends.
    private func cashuFlood() async throws {
        try await target.withLink { link in
            var session = try PayerSession(maxMessageBytes: SessionMessages.maxMessageBytes)
            try await link.send(try session.open())
            _ = try session.receive(try await link.receive(timeout: .seconds(30)))
            for index in 1...CashuTaking.offersPerSession {
                let offer =
                    index.isMultiple(of: 2)
                    ? Offer(.cashu("cashuBgarbage")) : Offer(.cashuTermsAsked)
                for message in try session.send(offer) { try await link.send(message) }
                guard
                    case .answer(let answer) = try session.receive(
                        try await link.receive(timeout: .seconds(30))),
                    case .refused("cashu-off", _) = answer.content
                else { throw HostileError("Cashu offer \(index) was not refused as cashu-off") }
            }
            for message in try session.send(Offer(.cashuTermsAsked)) {
                try await link.send(message)
            }
            try await expectSilence(
                on: link,
                "Cashu flood: offer \(CashuTaking.offersPerSession + 1) in one session (the first \(CashuTaking.offersPerSession) refused, cashu-off)"
            )
        }
    }

    /// Noise IK to a key that is not the payee's: it cannot read the first message.
    private func wrongStaticKey() async throws {
        try await target.withLink { link in
            var session = try PayerSession(
                payeeKey: Curve25519.KeyAgreement.PrivateKey().publicKey,
                maxMessageBytes: SessionMessages.maxMessageBytes)
            try await link.send(try session.open(with: Offer(.payment(payment))))
            try await expectSilence(on: link, "wrong static key: an IK session to another key")
        }
    }

    /// XX's last message with one bit flipped in its ciphertext.
    private func alteredRecord() async throws {
        try await target.withLink { link in
            var session = try PayerSession(maxMessageBytes: SessionMessages.maxMessageBytes)
            try await link.send(try session.open())
            _ = try session.receive(try await link.receive(timeout: .seconds(30)))
            var messages = try session.send(Offer(.payment(payment)))
            messages[messages.count - 1][messages[messages.count - 1].count / 2] ^= 0x10
            for message in messages { try await link.send(message) }
            try await expectSilence(on: link, "altered record: one bit flipped in the offer")
        }
    }

    /// The offer record sent again after its answer: the payee's nonce has moved on.
    private func replayedRecord() async throws {
        try await target.withLink { link in
            var session = try PayerSession(maxMessageBytes: SessionMessages.maxMessageBytes)
            try await link.send(try session.open())
            _ = try session.receive(try await link.receive(timeout: .seconds(30)))
            // A first offer that cannot be a payment, so the record replayed is a transport one.
            for message in try session.send(Offer(.payment([0x00]))) {
                try await link.send(message)
            }
            _ = try session.receive(try await link.receive(timeout: .seconds(30)))
            let record = try session.send(Offer(.payment([0x01])))
            for message in record { try await link.send(message) }
            _ = try await link.receive(timeout: .seconds(30))
            for message in record { try await link.send(message) }
            try await expectSilence(on: link, "replayed record: an offer record sent twice")
        }
    }

    /// The real payment with one byte changed in its signed body: refused, by name.
    private func forgedPayment() async throws {
        var forged = payment
        forged[forged.count * 2 / 3] ^= 0x01
        let answer = try await offer(forged)
        guard case .refused(let code, let reason) = answer.content else {
            throw HostileError("a forged payment was answered with a receipt")
        }
        say("hostile: forged payment: refused (\(code): \(reason))")
    }

    /// The real payment twice, in two sessions: the same receipt both times.
    private func replayedPayment() async throws {
        let first = try await offer(payment)
        let second = try await offer(payment)
        guard case .receipt(let receipt) = first.content,
            case .receipt(let again) = second.content
        else { throw HostileError("the real payment was refused: \(first.content)") }
        guard receipt == again else {
            throw HostileError("the payment offered again got a different receipt")
        }
        say("hostile: replayed payment: the same receipt both times (\(receipt.count) B)")
    }

    /// One offer in a fresh XX session; the payee's answer.
    private func offer(_ envelope: [UInt8]) async throws -> Answer {
        try await target.withLink { link in
            var session = try PayerSession(maxMessageBytes: SessionMessages.maxMessageBytes)
            try await link.send(try session.open())
            _ = try session.receive(try await link.receive(timeout: .seconds(30)))
            for message in try session.send(Offer(.payment(envelope))) {
                try await link.send(message)
            }
            guard
                case .answer(let answer) = try session.receive(
                    try await link.receive(timeout: .seconds(30)))
            else { throw HostileError("no answer to an offer") }
            return answer
        }
    }

    /// The payee answers nothing (it ends the session); an answer is a failure.
    private func expectSilence(on link: CentralLink, _ attack: String) async throws {
        do {
            let reply = try await link.receive(timeout: .seconds(10))
            throw HostileError("\(attack): the payee answered (\(reply.count) B)")
        } catch let error as BluetoothError {
            say("hostile: \(attack): no answer (\(error))")
        }
    }

    /// XX's opening: the payee's hello, proof that it serves.
    static func hello(on link: CentralLink) async throws -> Hello {
        var session = try PayerSession(maxMessageBytes: SessionMessages.maxMessageBytes)
        try await link.send(try session.open())
        guard
            case .hello(let hello) = try session.receive(
                try await link.receive(timeout: .seconds(30)))
        else { throw HostileError("no hello") }
        return hello
    }
}
