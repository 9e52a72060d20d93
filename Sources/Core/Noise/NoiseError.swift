/// Why a Noise handshake, a transport cipher or a secure channel refused to go on.
///
/// Every error is final: the state that threw it is closed and refuses any further use with
/// `.closed` (fail closed). Descriptions name what failed and never contain key or payload
/// bytes.
public enum NoiseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An IK initiator was built without the responder's static public key.
    case remoteStaticKeyMissing
    /// A remote static key was given where the pattern does not take one (XX, or an IK
    /// responder): it would be silently ignored otherwise.
    case remoteStaticKeyNotExpected(HandshakePattern)
    /// `writeMessage` when this side must read, or `readMessage` when it must write.
    case wrongTurn(expected: HandshakeStep)
    /// A handshake call after the last handshake message.
    case handshakeAlreadyComplete
    /// The transport ciphers were asked for before the last handshake message.
    case handshakeIncomplete
    /// A Noise message (handshake or transport) over `limit` bytes, refused on write and read.
    case messageTooLarge(size: Int, limit: Int)
    /// Handshake message `message` (1-based) is shorter than its tokens need.
    case messageTooShort(handshakeMessage: Int, size: Int, minimum: Int)
    /// Handshake message `message` (1-based) failed authentication at `field`: a wrong key,
    /// a different prologue, or bytes changed on the way.
    case handshakeDecryptionFailed(handshakeMessage: Int, field: HandshakeField)
    /// The Diffie-Hellman in handshake message `message` gave no usable secret (the peer's
    /// public key is a low-order point).
    case keyAgreementFailed(handshakeMessage: Int)
    /// A transport message shorter than the 16-byte authentication tag.
    case transportMessageTooShort(size: Int)
    /// The transport message expected under `nonce` failed authentication: altered,
    /// replayed, reordered or from another session.
    case transportDecryptionFailed(nonce: UInt64)
    /// The cipher's 64-bit nonce is used up (2^64 - 1 is reserved): the session must end.
    case nonceExhausted
    /// An application message over the secure channel's cap.
    case applicationMessageTooLarge(size: Int, cap: Int)
    /// A sealed message longer than any message within the cap can seal to.
    case sealedMessageTooLarge(size: Int, limit: Int)
    /// A sealed message whose last record is under 16 bytes (0: it ends on a full record,
    /// without the short final record every sealed message has).
    case incompleteFinalRecord(size: Int)
    /// Record `record` (0-based) of a sealed message of `records` failed authentication.
    case recordDecryptionFailed(record: Int, records: Int)
    /// The state failed before (or was used up) and refuses any further use.
    case closed

    public var description: String {
        switch self {
        case .remoteStaticKeyMissing:
            "IK needs the responder's static public key before the first message"
        case .remoteStaticKeyNotExpected(let pattern):
            "a remote static key was given but \(pattern) does not take one here"
        case .wrongTurn(let expected):
            "wrong turn: this side must \(expected) the next handshake message"
        case .handshakeAlreadyComplete: "the handshake is already complete"
        case .handshakeIncomplete: "the handshake is not complete"
        case .messageTooLarge(let size, let limit):
            "a Noise message of \(size) bytes is over the \(limit)-byte limit"
        case .messageTooShort(let message, let size, let minimum):
            "handshake message \(message) has \(size) bytes, its tokens need at least \(minimum)"
        case .handshakeDecryptionFailed(let message, let field):
            "handshake message \(message) failed to decrypt (\(field))"
        case .keyAgreementFailed(let message):
            "handshake message \(message): Diffie-Hellman with the peer's key failed"
        case .transportMessageTooShort(let size):
            "a transport message of \(size) bytes is shorter than its 16-byte tag"
        case .transportDecryptionFailed(let nonce):
            "transport message \(nonce) failed to decrypt (altered, replayed or reordered)"
        case .nonceExhausted: "the transport nonce is used up"
        case .applicationMessageTooLarge(let size, let cap):
            "an application message of \(size) bytes is over the channel's \(cap)-byte cap"
        case .sealedMessageTooLarge(let size, let limit):
            "a sealed message of \(size) bytes is over the channel's \(limit)-byte limit"
        case .incompleteFinalRecord(let size):
            size == 0
                ? "the sealed message ends without its short final record"
                : "the sealed message's final record has \(size) bytes, under the 16 of a tag"
        case .recordDecryptionFailed(let record, let records):
            "record \(record) of \(records) of a sealed message failed to decrypt"
        case .closed: "the Noise state failed earlier and is closed"
        }
    }
}

/// Which part of a handshake message failed authentication.
public enum HandshakeField: String, Equatable, Sendable, CustomStringConvertible {
    /// The sender's encrypted static public key (the `s` token).
    case staticKey = "static key"
    /// The encrypted payload at the end of the message.
    case payload

    public var description: String { rawValue }
}
