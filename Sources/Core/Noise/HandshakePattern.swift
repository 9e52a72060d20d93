/// The two handshake patterns Tender speaks (Noise §7.4, §7.5), each with Curve25519,
/// ChaCha20-Poly1305 and SHA-256.
///
/// ```
/// XX:                          IK:
///   -> e                         <- s
///   <- e, ee, s, es              ...
///   -> s, se                     -> e, es, s, ss
///                                <- e, ee, se
/// ```
public enum HandshakePattern: String, Equatable, Sendable, CustomStringConvertible {
    /// Both static keys travel encrypted; neither side knows the other beforehand.
    case xx = "XX"
    /// The initiator knows the responder's static key: one round trip, and the first
    /// payload is already encrypted to the responder.
    case ik = "IK"

    /// The full protocol name, hashed into the handshake as §5.2 says.
    public var protocolName: String { "Noise_\(rawValue)_25519_ChaChaPoly_SHA256" }

    public var description: String { protocolName }

    /// The messages in order; the initiator writes the even ones (0-based).
    var messages: [[Token]] {
        switch self {
        case .xx: [[.e], [.e, .ee, .s, .es], [.s, .se]]
        case .ik: [[.e, .es, .s, .ss], [.e, .ee, .se]]
        }
    }

    /// Whether the responder's static key is known before the first message (IK's `<- s`).
    var responderStaticIsPremessage: Bool { self == .ik }
}

/// Which side of the handshake this is.
public enum HandshakeRole: Equatable, Sendable {
    case initiator
    case responder
}

/// What a handshake state does next.
public enum HandshakeStep: String, Equatable, Sendable, CustomStringConvertible {
    case write
    case read
    /// All messages are through: take the transport ciphers.
    case finished

    public var description: String { rawValue }
}

/// A token of a message pattern (§7.1).
enum Token: Equatable, Sendable {
    case e, s, ee, es, se, ss
}
