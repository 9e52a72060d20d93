import Testing

@testable import Link

/// Every bit flip and every truncation of real frames, each fed to a fresh receiver with the
/// rest of its message. The link has no checksum of its own (BLE's link layer has a CRC-24),
/// so the promise is: a change to a header field never delivers bytes, and a change to the
/// payload is delivered as other bytes, which the session above refuses (its messages are
/// signed envelopes).
struct LinkMutationSweepTests {
    enum Outcome: Hashable, CustomStringConvertible {
        case refused(LinkError.Kind)
        /// Dropped without an error: another link's frame, or an old message's.
        case ignored
        /// Kept as part of some message, which stays incomplete.
        case held
        /// Delivered byte for byte (under another message id).
        case deliveredIntact
        case deliveredOther

        var description: String {
            switch self {
            case .refused(let kind): "refused (\(kind))"
            case .ignored: "ignored"
            case .held: "held, incomplete"
            case .deliveredIntact: "delivered intact"
            case .deliveredOther: "delivered, other bytes"
            }
        }
    }

    enum Field: String, CaseIterable {
        case type, link, message, index, count, payload

        init(offset: Int) {
            switch offset {
            case 0: self = .type
            case 1..<5: self = .link
            case 5..<7: self = .message
            case 7..<9: self = .index
            case 9..<11: self = .count
            default: self = .payload
            }
        }
    }

    /// Feeds `frames` (one of them mutated) to a fresh receiver and says what became of it.
    static func outcome(of frames: [[UInt8]], original: [UInt8]) throws -> Outcome {
        var receiver = try DatagramLink(id: 7)
        let events = feed(frames, to: &receiver)
        if let delivered = events.delivered.first {
            return delivered.bytes == original ? .deliveredIntact : .deliveredOther
        }
        if let error = events.errors.first { return .refused(error.kind) }
        let counters = receiver.counters
        return counters.foreignFrames + counters.staleFragments > 0 ? .ignored : .held
    }

    /// Sweeps fragment `target` of `bytes`; returns the outcomes per field (truncations
    /// under their own key, nil).
    static func sweep(_ bytes: [UInt8], target: Int) throws -> [Field?: [Outcome: Int]] {
        let frames = try Fragmenter.datagrams(of: bytes, link: 7, id: 0, configuration: .standard)
        let real = frames[target]
        var outcomes: [Field?: [Outcome: Int]] = [:]
        for offset in real.indices {
            for bit in 0..<8 {
                var mutated = frames
                mutated[target][offset] ^= 1 << bit
                let outcome = try Self.outcome(of: mutated, original: bytes)
                outcomes[Field(offset: offset), default: [:]][outcome, default: 0] += 1
            }
        }
        for length in 0..<real.count {
            var cut = frames
            cut[target] = Array(real.prefix(length))
            let outcome = try Self.outcome(of: cut, original: bytes)
            outcomes[nil, default: [:]][outcome, default: 0] += 1
        }
        return outcomes
    }

    static func report(_ name: String, _ outcomes: [Field?: [Outcome: Int]]) {
        print("mutation sweep: \(name)")
        for field in Field.allCases.map(Optional.some) + [nil] {
            let counts = outcomes[field, default: [:]].sorted { $0.value > $1.value }
                .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print("  \(field.map { "\($0.rawValue) bits" } ?? "truncations"): \(counts)")
        }
    }

    /// The header fails closed: nothing is delivered. The payload: always other bytes.
    static func expectHeaderFailsClosed(_ outcomes: [Field?: [Outcome: Int]], relabelled: Int = 0) {
        for field in [Field.type, .link, .index, .count] {
            let delivered = outcomes[field, default: [:]].filter {
                [.deliveredIntact, .deliveredOther].contains($0.key)
            }
            #expect(delivered.isEmpty, "\(field): \(delivered)")
        }
        #expect(outcomes[.message, default: [:]][.deliveredOther] == nil)
        #expect(outcomes[.message, default: [:]][.deliveredIntact, default: 0] == relabelled)
        #expect(outcomes[.payload, default: [:]].keys.elementsEqual([.deliveredOther]))
        #expect(outcomes[.link] == [.ignored: 32])
    }

    /// Fragment 1 of 3: every change is refused or leaves the message incomplete, except
    /// payload bits, delivered as other bytes. Every truncation is refused.
    @Test func aMiddleFragment() throws {
        let outcomes = try Self.sweep(message(500), target: 1)
        Self.report("fragment 1 of 3 (244 bytes)", outcomes)
        Self.expectHeaderFailsClosed(outcomes)
        let truncations = outcomes[nil, default: [:]]
        #expect(truncations[.refused(.truncatedFrame)] == 11)
        #expect(truncations[.refused(.emptyFragment)] == 1)
        #expect(truncations[.refused(.conflictingFragment)] == 232)
        #expect(
            outcomes[.index] == [.refused(.conflictingFragment): 1, .refused(.indexOutOfRange): 15])
    }

    /// The last fragment: cut inside its payload, it is a shorter message (other bytes).
    @Test func theLastFragment() throws {
        let outcomes = try Self.sweep(message(500), target: 2)
        Self.report("fragment 2 of 3 (45 bytes)", outcomes)
        Self.expectHeaderFailsClosed(outcomes)
        let truncations = outcomes[nil, default: [:]]
        #expect(truncations[.refused(.truncatedFrame)] == 11)
        #expect(truncations[.refused(.emptyFragment)] == 1)
        #expect(truncations[.deliveredOther] == 33)
    }

    /// A one-fragment message: a message id flipped to one of the next ids the receiver takes
    /// (1 or 2; 4 and up are out of its window) delivers the same bytes as a later message.
    @Test func aOneFragmentMessage() throws {
        let outcomes = try Self.sweep(message(50), target: 0)
        Self.report("the one fragment of a 50-byte message (61 bytes)", outcomes)
        Self.expectHeaderFailsClosed(outcomes, relabelled: 2)
        // Count 1 → 3, 5, 9, …: waits for the rest; → 32,769: over the cap; → 0: refused.
        #expect(
            outcomes[.count] == [
                .held: 14, .refused(.messageTooLarge): 1, .refused(.zeroFragmentCount): 1,
            ])
        let truncations = outcomes[nil, default: [:]]
        #expect(truncations[.refused(.truncatedFrame)] == 11)
        #expect(truncations[.deliveredOther] == 50)  // 0...49 payload bytes, the empty one too
    }

    /// Acks have no payload: a flipped `next` is an ack of other fragments, and nothing
    /// authenticates it. Counted here: the sender can be led to think fragments arrived that
    /// did not; the session above decides delivery by its signed receipt, not by this ack.
    @Test func anAck() throws {
        let ackFrame = ack(next: 1)
        var falseProgress = 0
        var outcomes: [String: Int] = [:]
        for offset in ackFrame.indices {
            for bit in 0..<8 {
                var sender = try DatagramLink(id: 7)
                _ = try sender.send(message(3 * 233), now: at(0))
                var mutated = ackFrame
                mutated[offset] ^= 1 << bit
                let events = sender.receive(mutated, now: at(0))
                let key: String
                if let error = events.errors.first {
                    key = "refused (\(error.kind))"
                } else if sender.counters.foreignFrames > 0 {
                    key = "ignored"
                } else if !events.acknowledged.isEmpty || sender.messageInFlight == nil {
                    key = "taken as the whole message acknowledged"
                    falseProgress += 1
                } else {
                    key = "no effect"
                }
                outcomes[key, default: 0] += 1
                #expect(offset >= 7 || key != "taken as the whole message acknowledged")
            }
        }
        print("mutation sweep: an ack (9 bytes): \(outcomes.sorted { $0.value > $1.value })")
        #expect(falseProgress == 1)  // next 1 → 3: the message's count
    }
}
