import Noise

/// The Noise state of one session: the handshake until it ends, then the channel. Any
/// failure drops both: a session that failed once says nothing more.
struct SessionCipher: ~Copyable {
    private var handshake: HandshakeState?
    private var channel: SecureChannel?
    private let maxMessageBytes: Int
    private(set) var failed = false
    private(set) var remoteKey: NoisePublicKey?

    init(_ handshake: consuming HandshakeState, maxMessageBytes: Int) {
        self.handshake = consume handshake
        self.maxMessageBytes = maxMessageBytes
    }

    var isHandshaking: Bool { handshake != nil }

    /// The largest payload the next handshake message can carry (the pattern's tokens use
    /// the rest of Noise's 65,535 bytes).
    static let handshakePayloadLimit = NoiseLimits.maxMessageLength - 96 - NoiseLimits.tagLength

    mutating func write(_ payload: [UInt8]) throws(SessionError) -> [UInt8] {
        if handshake != nil {
            return try step { state throws(NoiseError) in try state.writeMessage(payload: payload) }
        }
        return try sealed { channel throws(NoiseError) in try channel.seal(payload) }
    }

    mutating func read(_ message: [UInt8]) throws(SessionError) -> [UInt8] {
        if handshake != nil {
            return try step { state throws(NoiseError) in try state.readMessage(message) }
        }
        return try sealed { channel throws(NoiseError) in try channel.open(message) }
    }

    /// One handshake message; the channel is made when it was the last.
    private mutating func step(
        _ body: (inout HandshakeState) throws(NoiseError) -> [UInt8]
    ) throws(SessionError) -> [UInt8] {
        guard var state = handshake.take() else { throw fail(.closed) }
        let result: Result<[UInt8], NoiseError>
        do { result = .success(try body(&state)) } catch { result = .failure(error) }
        guard case .success(let bytes) = result else {
            if case .failure(let error) = result { throw fail(error) }
            throw fail(.closed)
        }
        if state.isComplete {
            do {
                let finished = try state.finish()
                remoteKey = finished.remoteStaticKey
                channel = SecureChannel(finished, maxMessageLength: maxMessageBytes)
            } catch { throw fail(error) }
        } else {
            handshake = consume state
        }
        return bytes
    }

    private mutating func sealed(
        _ body: (inout SecureChannel) throws(NoiseError) -> [UInt8]
    ) throws(SessionError) -> [UInt8] {
        guard var open = channel.take() else { throw fail(.closed) }
        let result: Result<[UInt8], NoiseError>
        do { result = .success(try body(&open)) } catch { result = .failure(error) }
        channel = consume open
        switch result {
        case .success(let bytes): return bytes
        case .failure(let error): throw fail(error)
        }
    }

    mutating func fail(_ error: NoiseError) -> SessionError {
        failed = true
        handshake = nil
        channel = nil
        return .noise(error)
    }
}
