import Noise

/// The payee's side of a payment session (pure: messages in, messages out). One per link.
public struct PayeeSession: ~Copyable {
    public enum Event: Sendable, Equatable {
        /// Send these bytes back (XX: the hello; IK: the end of a handshake without offer).
        case reply([UInt8])
        /// The payer's offer: answer it with `answer(_:)`.
        case offer(Offer)
        /// Nothing to do until the next message (the offer follows as a record).
        case waiting
    }

    private enum Expecting { case first, offer, answering, closed }

    private let staticKey: NoisePrivateKey
    private let maxMessageBytes: Int
    private var cipher: SessionCipher?
    private var expecting = Expecting.first

    public init(staticKey: NoisePrivateKey, maxMessageBytes: Int) {
        self.staticKey = staticKey
        self.maxMessageBytes = maxMessageBytes
    }

    /// Takes a message from the payer; `hello` is asked for only when XX needs it.
    public mutating func receive(
        _ message: [UInt8], hello: () -> Hello
    ) throws(SessionError) -> Event {
        switch expecting {
        case .first: return try first(message, hello: hello)
        case .offer: return try offer(message)
        case .answering, .closed:
            expecting = .closed
            throw SessionError.unexpected("a message from the payer out of turn")
        }
    }

    private mutating func first(
        _ message: [UInt8], hello: () -> Hello
    ) throws(SessionError) -> Event {
        expecting = .closed
        guard let byte = message.first else {
            throw SessionError.malformed("an empty first message")
        }
        guard let pattern = SessionPattern(rawValue: byte) else {
            throw SessionError.unknownPattern(byte)
        }
        do {
            cipher = SessionCipher(
                try HandshakeState(
                    pattern: pattern.noise, role: .responder, prologue: SessionPrologue.bytes,
                    localStatic: staticKey),
                maxMessageBytes: maxMessageBytes)
        } catch { throw SessionError.noise(error) }
        let payload = try withCipher { cipher throws(SessionError) in
            try cipher.read(Array(message.dropFirst()))
        }
        switch pattern {
        case .xx:
            guard payload.isEmpty else {
                throw SessionError.malformed("XX's first message carries a payload")
            }
            expecting = .offer
            let hello = hello().cbor.encoded()
            return .reply(try withCipher { cipher throws(SessionError) in try cipher.write(hello) })
        case .ik where payload.isEmpty:
            expecting = .offer
            return .reply(try withCipher { cipher throws(SessionError) in try cipher.write([]) })
        case .ik:
            expecting = .answering
            return .offer(try decodeMessage(payload, Offer.init))
        }
    }

    private mutating func offer(_ message: [UInt8]) throws(SessionError) -> Event {
        expecting = .closed
        var wasHandshaking = false
        let payload = try withCipher { cipher throws(SessionError) in
            wasHandshaking = cipher.isHandshaking
            return try cipher.read(message)
        }
        if wasHandshaking && payload.isEmpty {
            expecting = .offer
            return .waiting
        }
        expecting = .answering
        return .offer(try decodeMessage(payload, Offer.init))
    }

    /// Answers the offer just received.
    public mutating func answer(_ answer: Answer) throws(SessionError) -> [UInt8] {
        guard expecting == .answering else {
            throw SessionError.unexpected("an answer out of turn")
        }
        expecting = .closed
        let bytes = answer.cbor.encoded()
        let message = try withCipher { cipher throws(SessionError) in try cipher.write(bytes) }
        expecting = .offer
        return message
    }

    private mutating func withCipher<T>(
        _ body: (inout SessionCipher) throws(SessionError) -> T
    ) throws(SessionError) -> T {
        guard var current = cipher.take() else {
            throw SessionError.unexpected("a message before the handshake")
        }
        let result: Result<T, SessionError>
        do { result = .success(try body(&current)) } catch { result = .failure(error) }
        cipher = consume current
        return try result.get()
    }
}
