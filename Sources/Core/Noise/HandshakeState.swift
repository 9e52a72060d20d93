import Crypto

public typealias NoisePrivateKey = Curve25519.KeyAgreement.PrivateKey
public typealias NoisePublicKey = Curve25519.KeyAgreement.PublicKey

/// One side of a Noise handshake (§5.3): XX or IK over Curve25519, ChaCha20-Poly1305 and
/// SHA-256, every message with a payload (empty unless given).
///
/// Drive it with `writeMessage` and `readMessage` in the pattern's order (`nextStep` says
/// which), then `finish()` for the transport ciphers. Non-copyable, so a handshake cannot be
/// forked and finished twice. Any error closes it for good (every later call throws
/// `.closed`) and drops its keys.
public struct HandshakeState: ~Copyable, Sendable {
    public let pattern: HandshakePattern
    public let role: HandshakeRole
    var symmetric: SymmetricState
    let localStatic: NoisePrivateKey
    var localEphemeral: NoisePrivateKey?
    /// A test's fixed ephemeral key, used by the first `e` this side writes.
    private var presetEphemeral: NoisePrivateKey?
    /// The peer's static key: given for IK's initiator, learned from the handshake otherwise.
    public internal(set) var remoteStaticKey: NoisePublicKey?
    var remoteEphemeral: NoisePublicKey?
    /// The next message, 0-based; the initiator writes the even ones.
    private var messageIndex = 0
    private var isClosed = false

    /// A handshake with fresh ephemeral keys. `remoteStaticKey` is the responder's static key,
    /// required of an IK initiator and refused everywhere else. Both sides must give the same
    /// `prologue` (bytes bound into the handshake hash without being sent).
    public init(
        pattern: HandshakePattern, role: HandshakeRole, prologue: [UInt8] = [],
        localStatic: NoisePrivateKey, remoteStaticKey: NoisePublicKey? = nil
    ) throws(NoiseError) {
        try self.init(
            pattern: pattern, role: role, prologue: prologue, localStatic: localStatic,
            remoteStaticKey: remoteStaticKey, ephemeral: nil)
    }

    /// `ephemeral` replaces the fresh key, for known-answer tests only.
    init(
        pattern: HandshakePattern, role: HandshakeRole, prologue: [UInt8],
        localStatic: NoisePrivateKey, remoteStaticKey: NoisePublicKey?,
        ephemeral: NoisePrivateKey?
    ) throws(NoiseError) {
        let takesRemoteStatic = pattern.responderStaticIsPremessage && role == .initiator
        if takesRemoteStatic, remoteStaticKey == nil { throw .remoteStaticKeyMissing }
        if !takesRemoteStatic, remoteStaticKey != nil {
            throw .remoteStaticKeyNotExpected(pattern)
        }
        self.pattern = pattern
        self.role = role
        self.localStatic = localStatic
        self.remoteStaticKey = remoteStaticKey
        presetEphemeral = ephemeral
        symmetric = SymmetricState(protocolName: pattern.protocolName)
        symmetric.mixHash(prologue)
        // IK's pre-message `<- s`: both sides hash the responder's static key first.
        if pattern.responderStaticIsPremessage,
            let responderStatic = role == .initiator ? remoteStaticKey : localStatic.publicKey
        {
            symmetric.mixHash(Array(responderStatic.rawRepresentation))
        }
    }

    /// Write, read, or finished (then `finish()`). After a failure every call throws
    /// `.closed`, whatever this says.
    public var nextStep: HandshakeStep {
        guard messageIndex < pattern.messages.count else { return .finished }
        return (messageIndex % 2 == 0) == (role == .initiator) ? .write : .read
    }

    public var isComplete: Bool { nextStep == .finished }

    /// The handshake hash h once every message is through, for channel binding (the same on
    /// both sides); nil before.
    public var handshakeHash: [UInt8]? { isComplete ? symmetric.handshakeHash : nil }

    /// The next handshake message, carrying `payload` (encrypted unless no key exists yet,
    /// as in XX's first message).
    public mutating func writeMessage(payload: [UInt8] = []) throws(NoiseError) -> [UInt8] {
        try failingClosed(expecting: .write) { (state: inout HandshakeState) throws(NoiseError) in
            try state.write(payload: payload)
        }
    }

    /// Reads the peer's next handshake message and returns its payload.
    public mutating func readMessage(_ message: [UInt8]) throws(NoiseError) -> [UInt8] {
        try failingClosed(expecting: .read) { (state: inout HandshakeState) throws(NoiseError) in
            try state.read(message)
        }
    }

    /// Split (§5.2): the transport ciphers for this side, the handshake hash and the peer's
    /// static key. Consumes the handshake.
    public consuming func finish() throws(NoiseError) -> HandshakeResult {
        guard !isClosed else { throw .closed }
        guard isComplete, let remoteStaticKey else { throw .handshakeIncomplete }
        let handshakeHash = symmetric.handshakeHash
        let pair = symmetric.split()
        switch role {
        case .initiator:
            return HandshakeResult(
                sender: pair.initiatorToResponder, receiver: pair.responderToInitiator,
                handshakeHash: handshakeHash, remoteStaticKey: remoteStaticKey)
        case .responder:
            return HandshakeResult(
                sender: pair.responderToInitiator, receiver: pair.initiatorToResponder,
                handshakeHash: handshakeHash, remoteStaticKey: remoteStaticKey)
        }
    }

    private mutating func failingClosed(
        expecting step: HandshakeStep,
        _ body: (inout HandshakeState) throws(NoiseError) -> [UInt8]
    ) throws(NoiseError) -> [UInt8] {
        guard !isClosed else { throw .closed }
        do throws(NoiseError) {
            switch nextStep {
            case .finished: throw .handshakeAlreadyComplete
            case step: break
            default: throw .wrongTurn(expected: nextStep)
            }
            let output = try body(&self)
            messageIndex += 1
            return output
        } catch {
            close()
            throw error
        }
    }

    private mutating func close() {
        isClosed = true
        symmetric.close()
        localEphemeral = nil
        presetEphemeral = nil
    }

    /// The fixed ephemeral key once, then fresh ones.
    mutating func takeEphemeral() -> NoisePrivateKey {
        defer { presetEphemeral = nil }
        return presetEphemeral ?? NoisePrivateKey()
    }

    /// 1-based, as errors name messages.
    var messageNumber: Int { messageIndex + 1 }

    var tokens: [Token] { pattern.messages[messageIndex] }
}

/// What a finished handshake gives one side: its two transport ciphers, the handshake hash
/// for channel binding, and the peer's static public key (authenticated by the handshake).
public struct HandshakeResult: ~Copyable, Sendable {
    /// Encrypts what this side sends.
    public var sender: CipherState
    /// Decrypts what the peer sends.
    public var receiver: CipherState
    public let handshakeHash: [UInt8]
    public let remoteStaticKey: NoisePublicKey
}
