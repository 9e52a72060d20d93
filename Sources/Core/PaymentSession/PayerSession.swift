import Noise

/// The payer's side of a payment session (pure: messages in, messages out).
///
/// XX (payee found nearby): `open()` → the payee's hello (its request) → `send(offer)` →
/// its answer: 2 round trips. IK (payee's key from its code): `open(with: offer)` → its
/// answer: 1 round trip. An offer too large for a handshake message follows it as a record
/// (one more message, or for IK one more round trip). After an answer the payer may send
/// further offers (another payment, or the same payment again to settle one in doubt).
public struct PayerSession: ~Copyable {
    public enum Event: Sendable, Equatable {
        case hello(Hello)
        case answer(Answer)
        /// Send these messages (IK: the offer, once the handshake has ended without it).
        case send([[UInt8]])
    }

    private enum Expecting { case opening, hello, answer, offer, closed }

    private let pattern: SessionPattern
    private var cipher: SessionCipher
    private var expecting = Expecting.opening
    /// IK: an offer too large for the first message, sent once the handshake ends.
    private var heldOffer: [UInt8]?

    /// A session with a payee whose static key is not known (Noise XX).
    public init(maxMessageBytes: Int) throws(SessionError) {
        try self.init(.xx, payeeKey: nil, maxMessageBytes: maxMessageBytes)
    }

    /// A session with the payee whose static key is `payeeKey` (Noise IK).
    public init(payeeKey: NoisePublicKey, maxMessageBytes: Int) throws(SessionError) {
        try self.init(.ik, payeeKey: payeeKey, maxMessageBytes: maxMessageBytes)
    }

    private init(
        _ pattern: SessionPattern, payeeKey: NoisePublicKey?, maxMessageBytes: Int
    ) throws(SessionError) {
        self.pattern = pattern
        do {
            // The payer is known by its payment's signature, not by a session key: a fresh one.
            let handshake = try HandshakeState(
                pattern: pattern.noise, role: .initiator, prologue: SessionPrologue.bytes,
                localStatic: NoisePrivateKey(), remoteStaticKey: payeeKey)
            cipher = SessionCipher(handshake, maxMessageBytes: maxMessageBytes)
        } catch { throw SessionError.noise(error) }
    }

    /// The payee's static key, once the handshake has authenticated it.
    public var payeeKey: NoisePublicKey? { cipher.remoteKey }

    /// XX: the first message; the payee answers with its hello.
    public mutating func open() throws(SessionError) -> [UInt8] {
        guard pattern == .xx, expecting == .opening else {
            throw SessionError.unexpected("open() on an IK or opened session")
        }
        expecting = .hello
        return [pattern.rawValue] + (try cipher.write([]))
    }

    /// IK: the first message, carrying the offer when it fits; the payee answers it.
    public mutating func open(with offer: Offer) throws(SessionError) -> [UInt8] {
        guard pattern == .ik, expecting == .opening else {
            throw SessionError.unexpected("open(with:) on an XX or opened session")
        }
        expecting = .answer
        let bytes = offer.cbor.encoded()
        let fits = bytes.count <= SessionCipher.handshakePayloadLimit
        heldOffer = fits ? nil : bytes
        return [pattern.rawValue] + (try cipher.write(fits ? bytes : []))
    }

    /// Takes a message from the payee.
    public mutating func receive(_ message: [UInt8]) throws(SessionError) -> Event {
        switch expecting {
        case .hello:
            let payload = try cipher.read(message)
            expecting = .offer
            return .hello(try decodeMessage(payload, Hello.init))
        case .answer:
            let payload = try cipher.read(message)
            if let held = heldOffer, payload.isEmpty {
                heldOffer = nil
                return .send([try cipher.write(held)])
            }
            expecting = .offer
            return .answer(try decodeMessage(payload, Answer.init))
        default:
            expecting = .closed
            throw SessionError.unexpected("a message from the payee out of turn")
        }
    }

    /// Sends an offer: inside XX's last handshake message when it fits (else that message
    /// and a record), or as a record later.
    public mutating func send(_ offer: Offer) throws(SessionError) -> [[UInt8]] {
        guard expecting == .offer else { throw SessionError.unexpected("an offer out of turn") }
        expecting = .answer
        let bytes = offer.cbor.encoded()
        guard cipher.isHandshaking else { return [try cipher.write(bytes)] }
        if bytes.count <= SessionCipher.handshakePayloadLimit { return [try cipher.write(bytes)] }
        return [try cipher.write([]), try cipher.write(bytes)]
    }
}
