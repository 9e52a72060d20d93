import Testing

@testable import Noise

/// Every single-bit flip, every truncation and a one-byte extension of each handshake message
/// and of a sealed message: each must be refused. Fixed keys make every run write the same
/// bytes, so each change is applied to the very message the sweep measured.
@Suite struct TamperingTests {
    /// Every way of changing `message` the sweep tries, named for the failure report.
    static func changes(of message: [UInt8]) -> [(name: String, change: ([UInt8]) -> [UInt8])] {
        var changes = [(name: String, change: ([UInt8]) -> [UInt8])]()
        for byte in message.indices {
            for bit in 0..<8 {
                changes.append(
                    (
                        "bit \(bit) of byte \(byte) flipped",
                        {
                            var m = $0; m[byte] ^= 1 << bit; return m
                        }
                    ))
            }
        }
        for length in 0..<message.count {
            changes.append(("cut to \(length) bytes", { Array($0.prefix(length)) }))
        }
        changes.append(("one byte added", { $0 + [0] }))
        return changes
    }

    struct HandshakeCase: Sendable, CustomTestStringConvertible {
        var pattern: HandshakePattern
        /// 0-based.
        var message: Int

        /// The messages (0-based) where the change may be refused: the changed one, and for
        /// XX's first, which has no key yet, also the reply, whose keys then come from a
        /// different hash and fail to decrypt at the initiator.
        var refusedAt: ClosedRange<Int> { message...(pattern == .xx && message == 0 ? 1 : message) }

        var testDescription: String { "\(pattern.rawValue) message \(message + 1)" }
    }

    static let handshakeCases = [
        HandshakeCase(pattern: .xx, message: 0), HandshakeCase(pattern: .xx, message: 1),
        HandshakeCase(pattern: .xx, message: 2), HandshakeCase(pattern: .ik, message: 0),
        HandshakeCase(pattern: .ik, message: 1),
    ]

    /// The handshake with message `target` changed on the way: where it was refused and
    /// why, or nil if both sides finished.
    static func refusal(
        _ pattern: HandshakePattern, changing target: Int, _ change: ([UInt8]) -> [UInt8]
    ) throws -> (message: Int, error: NoiseError)? {
        var initiator = try makeInitiator(pattern)
        var responder = try makeResponder(pattern)
        for index in pattern.messages.indices {
            do {
                _ = try deliver(
                    index, &initiator, &responder, payload: handshakePayload(index),
                    change: index == target ? change : { $0 })
            } catch {
                return (index, error)
            }
        }
        return nil
    }

    @Test(arguments: handshakeCases)
    func everyChangeToAHandshakeMessageIsRefused(_ test: HandshakeCase) throws {
        var initiator = try makeInitiator(test.pattern)
        var responder = try makeResponder(test.pattern)
        let original = try handshake(&initiator, &responder)[test.message]
        let changes = Self.changes(of: original)
        #expect(changes.count == original.count * 9 + 1)
        var accepted = [String]()
        for (name, change) in changes {
            let refusal = try Self.refusal(test.pattern, changing: test.message, change)
            switch refusal?.error {
            case .handshakeDecryptionFailed, .messageTooShort, .keyAgreementFailed:
                if !test.refusedAt.contains(refusal!.message) {
                    accepted.append("\(name): refused at message \(refusal!.message + 1)")
                }
            default: accepted.append("\(name): \(refusal.map { "\($0.error)" } ?? "accepted")")
            }
        }
        #expect(
            accepted.isEmpty, "\(accepted.count) not refused as expected: \(accepted.prefix(5))")
    }

    /// A small sealed message, swept whole: each change must fail `open` and close the channel.
    @Test func everyChangeToASealedMessageIsRefused() throws {
        let message = Array("tea for two".utf8)
        let (alice, _) = channelPair()
        let sealed = try alice.channel.seal(message)
        #expect(sealed.count == 27)
        var accepted = [String]()
        for (name, change) in Self.changes(of: sealed) {
            let (alice, bob) = channelPair()
            #expect(try alice.channel.seal(message) == sealed)
            if let opened = try? bob.channel.open(change(sealed)) {
                accepted.append("\(name): opened \(opened.count) bytes")
            } else if (try? bob.channel.open([])) != nil || (try? bob.channel.seal([])) != nil {
                accepted.append("\(name): the channel stayed open")
            }
        }
        #expect(accepted.isEmpty, "\(accepted.count) accepted: \(accepted.prefix(5))")
    }

    /// A three-record message: flips at the edges of each record and cuts at each record
    /// boundary (a whole sweep would decrypt megabytes tens of thousands of times).
    @Test func changesAcrossRecordsAreRefused() throws {
        let message = (0..<140_000).map { UInt8(truncatingIfNeeded: $0) }
        let (alice, _) = channelPair()
        let sealed = try alice.channel.seal(message)
        #expect(sealed.count == 140_048)
        var changes = [(name: String, change: ([UInt8]) -> [UInt8])]()
        for offset in [0, 65_534, 65_535, 65_535 + 65_534, 131_070, 131_070 + 15, sealed.count - 1]
        {
            changes.append(
                (
                    "byte \(offset) flipped",
                    {
                        var m = $0; m[offset] ^= 0x80; return m
                    }
                ))
        }
        for length in [65_535, 65_535 + 15, 65_535 + 16, 131_070, 131_070 + 16, sealed.count - 1] {
            changes.append(("cut to \(length) bytes", { Array($0.prefix(length)) }))
        }
        for (name, change) in changes {
            let (alice, bob) = channelPair()
            _ = try alice.channel.seal(message)
            #expect(throws: NoiseError.self, "\(name)") { try bob.channel.open(change(sealed)) }
        }
    }
}
