import Noise
import PaymentSession

/// The payee's payment sessions, one per link (a payer's GATT link or L2CAP channel), each
/// opened by the link's first message. Pure: what arrives goes in, what to send comes out.
struct PayeeSessions {
    private let staticKey: NoisePrivateKey
    private var sessions: [UInt32: SessionBox] = [:]

    init(staticKey: NoisePrivateKey) { self.staticKey = staticKey }

    /// Links with a session.
    var links: [UInt32] { Array(sessions.keys) }

    func contains(_ link: UInt32) -> Bool { sessions[link] != nil }

    /// `message` through `link`'s session (opened now if it has none). A message the session
    /// refuses throws; the link is then to be ended (`end`).
    mutating func receive(
        _ message: [UInt8], on link: UInt32, hello: () -> Hello
    ) throws(SessionError) -> PayeeSession.Event {
        let box =
            sessions[link]
            ?? SessionBox(
                PayeeSession(staticKey: staticKey, maxMessageBytes: SessionMessages.maxMessageBytes)
            )
        sessions[link] = box
        return try box.session.receive(message, hello: hello)
    }

    /// The answer to `link`'s offer, sealed for its payer; nil when the link has no session.
    mutating func answer(_ answer: Answer, on link: UInt32) throws(SessionError) -> [UInt8]? {
        guard let box = sessions[link] else { return nil }
        return try box.session.answer(answer)
    }

    /// Ends `link`'s session; whether it had one.
    mutating func end(_ link: UInt32) -> Bool { sessions.removeValue(forKey: link) != nil }
}

/// One payer's session (non-copyable state in a dictionary needs a box).
private final class SessionBox {
    var session: PayeeSession
    init(_ session: consuming PayeeSession) { self.session = session }
}
