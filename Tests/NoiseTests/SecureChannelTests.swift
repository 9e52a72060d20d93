import Testing

@testable import Noise

@Suite struct SecureChannelTests {
    /// Lengths around every boundary of the record rule.
    static let lengths = [0, 1, 65_518, 65_519, 65_520, 131_037, 131_038, 131_039, 1 << 20]

    /// Sealed lengths follow the record rule exactly, and the records are 65,535 bytes but
    /// the last (checked by opening them one at a time with a bare transport cipher).
    @Test(arguments: lengths)
    func recordRule(_ length: Int) throws {
        let (alice, bob) = channelPair()
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let sealed = try alice.channel.seal(message)
        let records = length / 65_519 + 1
        #expect(sealed.count == length + 16 * records)
        #expect(sealed.count == SecureChannel.sealedLength(ofMessageLength: length))
        #expect(sealed.count % 65_535 == length % 65_519 + 16, "the final record is short")
        #expect(try bob.channel.open(sealed) == message)

        // The same records, opened one by one as plain Noise transport messages.
        var receiver = CipherState(key: .init(data: [UInt8](repeating: 0xA1, count: 32)))
        var opened = [UInt8]()
        for start in stride(from: 0, to: sealed.count, by: 65_535) {
            let record = Array(sealed[start..<min(start + 65_535, sealed.count)])
            opened += try receiver.decrypt(record)
        }
        #expect(opened == message)
    }

    @Test func anEmptyMessageIsOneRecordOfSixteenBytes() throws {
        let (alice, bob) = channelPair()
        let sealed = try alice.channel.seal([])
        #expect(sealed.count == 16)
        #expect(try bob.channel.open(sealed) == [])
    }

    /// Messages keep flowing both ways on one channel, nonces continuing across messages.
    @Test func conversation() throws {
        let (alice, bob) = channelPair()
        for round in 0..<4 {
            let question = [UInt8](repeating: UInt8(round), count: round * 40_000)
            #expect(try bob.channel.open(alice.channel.seal(question)) == question)
            let answer = Array("answer \(round)".utf8)
            #expect(try alice.channel.open(bob.channel.seal(answer)) == answer)
        }
    }

    @Test func sealingOverTheCapIsRefusedAndCloses() throws {
        let (alice, _) = channelPair(maxMessageLength: 100)
        #expect(throws: NoiseError.applicationMessageTooLarge(size: 101, cap: 100)) {
            try alice.channel.seal([UInt8](repeating: 0, count: 101))
        }
        #expect(throws: NoiseError.closed) { try alice.channel.seal([]) }
        #expect(throws: NoiseError.closed) { try alice.channel.open([]) }
    }

    /// A sealed message longer than the cap can seal to is refused before decryption, even
    /// when the sender's cap allowed it.
    @Test func openingOverTheCapIsRefused() throws {
        let (alice, _) = channelPair(maxMessageLength: 200_000)
        let (_, bob) = channelPair(maxMessageLength: 100_000)
        let sealed = try alice.channel.seal([UInt8](repeating: 1, count: 100_001))
        #expect(throws: NoiseError.sealedMessageTooLarge(size: 100_033, limit: 100_032)) {
            try bob.channel.open(sealed)
        }
        #expect(throws: NoiseError.closed) { try bob.channel.seal([]) }
        // Exactly the cap goes through.
        let (carol, dave) = channelPair(maxMessageLength: 100_000)
        let atCap = [UInt8](repeating: 2, count: 100_000)
        #expect(try dave.channel.open(carol.channel.seal(atCap)) == atCap)
    }

    /// Replaying a sealed message: its records are read under later nonces and fail.
    @Test func replayFails() throws {
        let (alice, bob) = channelPair()
        let sealed = try alice.channel.seal(Array("pay 5".utf8))
        _ = try bob.channel.open(sealed)
        #expect(throws: NoiseError.recordDecryptionFailed(record: 0, records: 1)) {
            try bob.channel.open(sealed)
        }
        #expect(throws: NoiseError.closed) { try bob.channel.open([]) }
    }

    /// Two-record messages: the final record dropped, a record spliced in from the next
    /// message, records from two messages swapped, the second message before the first.
    @Test func recordsCannotBeMovedOrDropped() throws {
        func pair() throws -> (sealed: [[UInt8]], bob: SecureChannelBox) {
            let (alice, bob) = channelPair()
            let first = try alice.channel.seal([UInt8](repeating: 1, count: 70_000))
            let second = try alice.channel.seal([UInt8](repeating: 2, count: 70_000))
            return ([first, second], bob)
        }
        var (sealed, bob) = try pair()
        #expect(throws: NoiseError.incompleteFinalRecord(size: 0)) {
            try bob.channel.open(Array(sealed[0].prefix(65_535)))
        }
        (sealed, bob) = try pair()
        let spliced = Array(sealed[0].prefix(65_535)) + Array(sealed[1].suffix(from: 65_535))
        #expect(throws: NoiseError.recordDecryptionFailed(record: 1, records: 2)) {
            try bob.channel.open(spliced)
        }
        (sealed, bob) = try pair()
        let swapped = Array(sealed[1].prefix(65_535)) + Array(sealed[0].suffix(from: 65_535))
        #expect(throws: NoiseError.recordDecryptionFailed(record: 0, records: 2)) {
            try bob.channel.open(swapped)
        }
        (sealed, bob) = try pair()
        #expect(throws: NoiseError.recordDecryptionFailed(record: 0, records: 2)) {
            try bob.channel.open(sealed[1])
        }
    }

    /// A channel from a real handshake carries its hash and the peer's key.
    @Test func fromAHandshake() throws {
        var initiator = try makeInitiator(.ik)
        var responder = try makeResponder(.ik)
        try handshake(&initiator, &responder)
        let hash = initiator.handshakeHash
        var alice = try SecureChannel(handshake: initiator, maxMessageLength: 1 << 20)
        var bob = try SecureChannel(handshake: responder, maxMessageLength: 1 << 20)
        #expect(alice.handshakeHash == hash && bob.handshakeHash == hash)
        #expect(alice.remoteStaticKey.bytes == Keys.responderStatic.publicKey.bytes)
        #expect(bob.remoteStaticKey.bytes == Keys.initiatorStatic.publicKey.bytes)
        let note = Array("a note".utf8)
        let sealed = try alice.seal(note)
        #expect(try bob.open(sealed) == note)
    }
}
