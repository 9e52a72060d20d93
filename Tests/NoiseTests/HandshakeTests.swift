import Testing

@testable import Noise

@Suite struct HandshakeTests {
    static let patterns: [HandshakePattern] = [.xx, .ik]

    /// A handshake with fresh ephemeral keys (the public initialisers), payloads on every
    /// message, then transport both ways: each side learns the other's static key and both
    /// hold the same handshake hash.
    @Test(arguments: patterns)
    func roundTrip(_ pattern: HandshakePattern) throws {
        var initiator = try HandshakeState(
            pattern: pattern, role: .initiator, prologue: Array("tender/1".utf8),
            localStatic: Keys.initiatorStatic,
            remoteStaticKey: pattern == .ik ? Keys.responderStatic.publicKey : nil)
        var responder = try HandshakeState(
            pattern: pattern, role: .responder, prologue: Array("tender/1".utf8),
            localStatic: Keys.responderStatic)
        #expect(initiator.nextStep == .write && responder.nextStep == .read)
        #expect(initiator.handshakeHash == nil)
        let messages = try handshake(&initiator, &responder)
        #expect(messages.count == pattern.messages.count)
        #expect(initiator.nextStep == .finished && responder.nextStep == .finished)
        let initiatorHash = initiator.handshakeHash
        let hash = try #require(initiatorHash)
        #expect(hash.count == 32 && responder.handshakeHash == hash)
        #expect(initiator.remoteStaticKey?.bytes == Keys.responderStatic.publicKey.bytes)
        #expect(responder.remoteStaticKey?.bytes == Keys.initiatorStatic.publicKey.bytes)

        var initiatorSide = try initiator.finish()
        var responderSide = try responder.finish()
        #expect(initiatorSide.handshakeHash == hash && responderSide.handshakeHash == hash)
        for round in 0..<3 {
            let ping = Array("ping \(round)".utf8)
            let pong = Array("pong \(round)".utf8)
            let sealedPing = try initiatorSide.sender.encrypt(ping)
            #expect(sealedPing.count == ping.count + 16)
            #expect(try responderSide.receiver.decrypt(sealedPing) == ping)
            #expect(try initiatorSide.receiver.decrypt(responderSide.sender.encrypt(pong)) == pong)
        }
    }

    /// Two handshakes with fresh ephemeral keys never make the same messages or hash.
    @Test func freshEphemeralKeysEachTime() throws {
        var hashes = Set<[UInt8]>()
        var firstMessages = Set<[UInt8]>()
        for _ in 0..<2 {
            var initiator = try HandshakeState(
                pattern: .xx, role: .initiator, localStatic: Keys.initiatorStatic)
            var responder = try HandshakeState(
                pattern: .xx, role: .responder, localStatic: Keys.responderStatic)
            firstMessages.insert(try handshake(&initiator, &responder)[0])
            let hash = initiator.handshakeHash
            hashes.insert(try #require(hash))
        }
        #expect(hashes.count == 2 && firstMessages.count == 2)
    }

    /// The message sizes the patterns fix: keys, encrypted keys, tags, payload.
    @Test func messageSizes() throws {
        var xxInitiator = try makeInitiator(.xx)
        var xxResponder = try makeResponder(.xx)
        let xx = try handshake(&xxInitiator, &xxResponder).map(\.count)
        #expect(xx == [32 + 9, 32 + 48 + 16 + 9, 48 + 16 + 9])
        var ikInitiator = try makeInitiator(.ik)
        var ikResponder = try makeResponder(.ik)
        let ik = try handshake(&ikInitiator, &ikResponder).map(\.count)
        #expect(ik == [32 + 48 + 16 + 9, 32 + 16 + 9])
    }

    /// An IK initiator with the wrong key for the responder: the responder cannot decrypt
    /// the initiator's static key and says so.
    @Test func ikWithTheWrongResponderKeyFailsAtTheResponder() throws {
        var initiator = try makeInitiator(.ik, responderKey: Keys.stranger.publicKey)
        var responder = try makeResponder(.ik)
        let first = try initiator.writeMessage(payload: handshakePayload(0))
        #expect(
            throws: NoiseError.handshakeDecryptionFailed(handshakeMessage: 1, field: .staticKey)
        ) {
            try responder.readMessage(first)
        }
        #expect(responder.remoteStaticKey == nil)
        #expect(throws: NoiseError.closed) { try responder.writeMessage() }
    }

    /// Prologues differ: the first message that is encrypted fails (XX's second, IK's first).
    @Test(arguments: [(HandshakePattern.xx, 2), (.ik, 1)])
    func differentProloguesFail(_ pattern: HandshakePattern, failingMessage: Int) throws {
        var initiator = try makeInitiator(pattern, prologue: Array("tender/1".utf8))
        var responder = try makeResponder(pattern, prologue: Array("tender/2".utf8))
        #expect(
            throws: NoiseError.handshakeDecryptionFailed(
                handshakeMessage: failingMessage, field: .staticKey)
        ) {
            try handshake(&initiator, &responder)
        }
    }

    @Test func keysTheHandshakeDoesNotTakeAreRefused() {
        #expect(throws: NoiseError.remoteStaticKeyMissing) {
            _ = try HandshakeState(
                pattern: .ik, role: .initiator, localStatic: Keys.initiatorStatic)
        }
        #expect(throws: NoiseError.remoteStaticKeyNotExpected(.xx)) {
            _ = try HandshakeState(
                pattern: .xx, role: .initiator, localStatic: Keys.initiatorStatic,
                remoteStaticKey: Keys.responderStatic.publicKey)
        }
        #expect(throws: NoiseError.remoteStaticKeyNotExpected(.ik)) {
            _ = try HandshakeState(
                pattern: .ik, role: .responder, localStatic: Keys.responderStatic,
                remoteStaticKey: Keys.initiatorStatic.publicKey)
        }
    }

    /// Out of turn, both ways; the state is closed afterwards.
    @Test(arguments: patterns)
    func wrongTurnIsRefusedAndCloses(_ pattern: HandshakePattern) throws {
        var initiator = try makeInitiator(pattern)
        #expect(throws: NoiseError.wrongTurn(expected: .write)) {
            try initiator.readMessage([UInt8](repeating: 0, count: 200))
        }
        #expect(throws: NoiseError.closed) { try initiator.writeMessage() }
        var responder = try makeResponder(pattern)
        #expect(throws: NoiseError.wrongTurn(expected: .read)) { try responder.writeMessage() }
        #expect(throws: NoiseError.closed) {
            try responder.readMessage([UInt8](repeating: 0, count: 200))
        }
    }

    @Test(arguments: patterns)
    func nothingAfterTheLastMessage(_ pattern: HandshakePattern) throws {
        var initiator = try makeInitiator(pattern)
        var responder = try makeResponder(pattern)
        try handshake(&initiator, &responder)
        #expect(throws: NoiseError.handshakeAlreadyComplete) { try initiator.writeMessage() }
        expectFinishFails(initiator, with: .closed)
        #expect(throws: NoiseError.handshakeAlreadyComplete) { try responder.readMessage([]) }
    }

    @Test(arguments: patterns)
    func finishBeforeTheEndIsRefused(_ pattern: HandshakePattern) throws {
        var initiator = try makeInitiator(pattern)
        var responder = try makeResponder(pattern)
        _ = try deliver(0, &initiator, &responder, payload: [])
        expectFinishFails(initiator, with: .handshakeIncomplete)
        do {
            _ = try SecureChannel(handshake: responder, maxMessageLength: 10)
            Issue.record("a channel from an unfinished handshake")
        } catch {
            #expect(error == .handshakeIncomplete)
        }
    }

    /// XX's first message carries 65,503 payload bytes at most (65,535 with its key); one
    /// more is refused on write, and a 65,536-byte message on read.
    @Test func handshakeMessagesStopAtTheNoiseLimit() throws {
        var initiator = try makeInitiator(.xx)
        var responder = try makeResponder(.xx)
        let largest = [UInt8](repeating: 7, count: 65_503)
        let message = try initiator.writeMessage(payload: largest)
        #expect(message.count == 65_535)
        #expect(try responder.readMessage(message) == largest)

        var tooMuch = try makeInitiator(.xx)
        #expect(throws: NoiseError.messageTooLarge(size: 65_536, limit: 65_535)) {
            try tooMuch.writeMessage(payload: largest + [7])
        }
        #expect(throws: NoiseError.closed) { try tooMuch.writeMessage() }
        var reader = try makeResponder(.xx)
        #expect(throws: NoiseError.messageTooLarge(size: 65_536, limit: 65_535)) {
            try reader.readMessage(message + [0])
        }
        // An encrypted payload: IK's first message has 65,535 - 96 bytes of room.
        var ik = try makeInitiator(.ik)
        #expect(throws: NoiseError.messageTooLarge(size: 65_536, limit: 65_535)) {
            try ik.writeMessage(payload: [UInt8](repeating: 1, count: 65_535 - 96 + 1))
        }
    }

    /// Shorter than the message's tokens and tag need: named with the minimum.
    @Test func tooShortForTheTokens() throws {
        var xxResponder = try makeResponder(.xx)
        #expect(throws: NoiseError.messageTooShort(handshakeMessage: 1, size: 31, minimum: 32)) {
            try xxResponder.readMessage([UInt8](repeating: 9, count: 31))
        }
        var initiator = try makeInitiator(.xx)
        var responder = try makeResponder(.xx)
        _ = try deliver(0, &initiator, &responder, payload: [])
        let second = try responder.writeMessage()
        #expect(throws: NoiseError.messageTooShort(handshakeMessage: 2, size: 95, minimum: 96)) {
            try initiator.readMessage(Array(second.prefix(95)))
        }
        var ikResponder = try makeResponder(.ik)
        #expect(throws: NoiseError.messageTooShort(handshakeMessage: 1, size: 0, minimum: 96)) {
            try ikResponder.readMessage([])
        }
    }

    /// A low-order ephemeral key (here the point 0) makes the Diffie-Hellman fail, named.
    @Test func lowOrderEphemeralKeyIsRefused() throws {
        let zeroPoint = [UInt8](repeating: 0, count: 32)
        var ikInitiator = try makeInitiator(.ik)
        var ikResponder = try makeResponder(.ik)
        var first = try ikInitiator.writeMessage()
        first.replaceSubrange(0..<32, with: zeroPoint)
        #expect(throws: NoiseError.keyAgreementFailed(handshakeMessage: 1)) {
            try ikResponder.readMessage(first)
        }
        // XX's first message does no Diffie-Hellman: the responder's reply does, and fails.
        var xxResponder = try makeResponder(.xx)
        _ = try xxResponder.readMessage(zeroPoint)
        #expect(throws: NoiseError.keyAgreementFailed(handshakeMessage: 2)) {
            try xxResponder.writeMessage()
        }
    }
}
