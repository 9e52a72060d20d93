import Testing

@testable import Link

/// Bounded reassembly: order, duplicates, conflicts, the size cap, messages in flight, the
/// shared buffer and timeouts. `tiny`: 21-byte payloads, 1,000-byte cap, window 4.
struct ReassemblerTests {
    static func piece(
        _ message: UInt16 = 0, _ index: UInt16, of count: UInt16, _ payload: [UInt8]
    ) -> LinkFragment {
        LinkFragment(link: 7, message: message, index: index, count: count, payload: payload[...])
    }

    /// Fragments of `bytes` as the sender makes them (21-byte payloads under `tiny`).
    static func pieces(_ bytes: [UInt8], message id: UInt16 = 0) throws -> [LinkFragment] {
        try Fragmenter.datagrams(of: bytes, link: 7, id: id, configuration: tiny).map {
            guard case .data(let fragment) = try LinkFrame.decode($0) else { fatalError() }
            return fragment
        }
    }

    @Test func outOfOrderWithinTheWindow() throws {
        let bytes = message(100)
        let parts = try Self.pieces(bytes)  // 5 fragments
        var reassembler = Reassembler(configuration: tiny)
        #expect(
            try reassembler.accept(parts[2], now: at(0)).progress == .stored(next: 0, advancedBy: 0)
        )
        #expect(
            try reassembler.accept(parts[1], now: at(0)).progress == .stored(next: 0, advancedBy: 0)
        )
        #expect(
            try reassembler.accept(parts[0], now: at(0)).progress == .stored(next: 3, advancedBy: 3)
        )
        #expect(reassembler.bufferedBytes == 63 && reassembler.next(of: 0) == 3)
        #expect(
            try reassembler.accept(parts[4], now: at(0)).progress == .stored(next: 3, advancedBy: 0)
        )
        #expect(try reassembler.accept(parts[3], now: at(0)).progress == .complete(bytes))
        #expect(reassembler.bufferedBytes == 0 && reassembler.messagesInFlight == 0)
    }

    @Test func fragmentsPastTheWindowAreNotKept() throws {
        let parts = try Self.pieces(message(200))  // 10 fragments, window 4
        var reassembler = Reassembler(configuration: tiny)
        #expect(try reassembler.accept(parts[4], now: at(0)).progress == .beyondWindow(next: 0))
        #expect(reassembler.messagesInFlight == 0)
        _ = try reassembler.accept(parts[0], now: at(0))
        #expect(
            try reassembler.accept(parts[4], now: at(0)).progress == .stored(next: 1, advancedBy: 0)
        )
        #expect(try reassembler.accept(parts[5], now: at(0)).progress == .beyondWindow(next: 1))
        #expect(reassembler.bufferedBytes == 42)
    }

    @Test func duplicatesAreIgnored() throws {
        let parts = try Self.pieces(message(100))
        var reassembler = Reassembler(configuration: tiny)
        _ = try reassembler.accept(parts[0], now: at(0))
        _ = try reassembler.accept(parts[2], now: at(0))
        #expect(try reassembler.accept(parts[0], now: at(0)).progress == .duplicate(next: 1))
        #expect(try reassembler.accept(parts[2], now: at(0)).progress == .duplicate(next: 1))
        #expect(reassembler.bufferedBytes == 42)
    }

    /// Other bytes, another count, or a length the held fragments rule out: the message goes.
    @Test func conflictingFragmentsDiscardTheMessage() throws {
        let parts = try Self.pieces(message(100))
        var recounted = parts[2]
        recounted.count = 6
        let tooShort = Self.piece(0, 3, of: 5, Array(repeating: 1, count: 20))
        let lastTooLong = Self.piece(0, 4, of: 5, Array(repeating: 1, count: 22))
        for (held, conflicting) in [
            ([parts[0], parts[1]], parts[1].flipped()), ([parts[0], parts[1]], parts[0].flipped()),
            ([parts[0], parts[2]], recounted), ([parts[0]], tooShort), ([parts[0]], lastTooLong),
            (
                [Self.piece(0, 2, of: 3, Array(repeating: 1, count: 16))],
                Self.piece(0, 1, of: 3, Array(repeating: 1, count: 7))
            ),
        ] {
            var reassembler = Reassembler(configuration: tiny)
            for part in held { _ = try reassembler.accept(part, now: at(0)) }
            let error = thrown { try reassembler.accept(conflicting, now: at(0)) }
            #expect(error == .conflictingFragment(message: 0, index: conflicting.index))
            #expect(reassembler.messagesInFlight == 0 && reassembler.bufferedBytes == 0)
        }
    }

    /// Refused at the first fragment once the smallest message it allows passes the cap; a
    /// message of exactly the cap is taken.
    @Test func theCapIsCheckedAtTheFirstFragment() throws {
        var reassembler = Reassembler(configuration: tiny)
        // 48 full fragments and one byte: 988 bytes fit; 49 full and one byte: 1,030 do not.
        _ = try reassembler.accept(
            Self.piece(0, 0, of: 48, Array(repeating: 1, count: 21)), now: at(0))
        let error = thrown {
            try reassembler.accept(
                Self.piece(1, 0, of: 50, Array(repeating: 1, count: 21)), now: at(0))
        }
        #expect(error == .messageTooLarge(message: 1, bytes: 1_030, cap: 1_000))
        #expect(reassembler.messageIDs == [0])
        #expect(try FragmenterTests.roundTrip(message(1_000), configuration: tiny) == 48)
        // The last fragment alone: the others are at least as long (4 × 13 > 50).
        var small = tiny
        small.maxMessageBytes = 50
        var fresh = Reassembler(configuration: small)
        let fromLast = thrown {
            try fresh.accept(Self.piece(2, 3, of: 4, Array(repeating: 1, count: 13)), now: at(0))
        }
        #expect(fromLast == .messageTooLarge(message: 2, bytes: 52, cap: 50))
        #expect(fresh.messagesInFlight == 0)
    }

    /// The bytes actually received count too: a last fragment longer than a guess allowed.
    @Test func theCapIsCheckedOnEveryFragment() throws {
        var reassembler = Reassembler(configuration: tiny)
        // 48 fragments of 21 bytes: at least 47 × 21 + 1 = 988 bytes, so taken; the last
        // one, full as well, makes 1,008.
        let error = thrown {
            for index in UInt16(0)..<48 {
                _ = try reassembler.accept(
                    Self.piece(0, index, of: 48, Array(repeating: 1, count: 21)), now: at(0))
            }
        }
        #expect(error == .messageTooLarge(message: 0, bytes: 1_008, cap: 1_000))
        #expect(reassembler.messagesInFlight == 0 && reassembler.bufferedBytes == 0)
    }

    @Test func theOldestMessageGivesWayToANewOne() throws {
        var reassembler = Reassembler(configuration: tiny)
        for id in UInt16(0)..<4 {
            let accepted = try reassembler.accept(Self.piece(id, 0, of: 3, [1]), now: at(0))
            #expect(accepted.dropped.isEmpty)
        }
        let accepted = try reassembler.accept(Self.piece(4, 0, of: 3, [1]), now: at(0))
        #expect(accepted.dropped == [.tooManyMessagesInFlight(dropped: 0, limit: 4)])
        #expect(reassembler.messageIDs == [1, 2, 3, 4])
    }

    /// All incomplete messages share one message's worth of buffer.
    @Test func theBufferIsSharedAndBounded() throws {
        var reassembler = Reassembler(configuration: tiny)
        let full = Array(repeating: UInt8(1), count: 21)
        // Message 0: 30 fragments of 48 (630 bytes) held; message 1 grows until it needs the room.
        for index in UInt16(0)..<30 {
            _ = try reassembler.accept(Self.piece(0, index, of: 48, full), now: at(0))
        }
        var dropped: [LinkError] = []
        for index in UInt16(0)..<18 {
            dropped += try reassembler.accept(Self.piece(1, index, of: 48, full), now: at(0))
                .dropped
            #expect(reassembler.bufferedBytes <= 1_000)
        }
        #expect(dropped == [.bufferFull(dropped: 0, limit: 1_000)])
        #expect(reassembler.messageIDs == [1] && reassembler.bufferedBytes == 18 * 21)
        // The oldest goes even when it is the fragment's own message.
        for index in UInt16(0)..<30 {
            _ = try reassembler.accept(Self.piece(2, index, of: 48, full), now: at(0))
        }
        #expect(reassembler.messageIDs == [2])
        let own = try reassembler.accept(Self.piece(2, 30, of: 48, full), now: at(0))
        #expect(own.progress == .stored(next: 31, advancedBy: 1))
        _ = try reassembler.accept(Self.piece(3, 0, of: 48, full), now: at(0))
        for index in UInt16(31)..<48 {
            let accepted = try reassembler.accept(Self.piece(2, index, of: 48, full), now: at(0))
            if accepted.progress == .dropped {
                #expect(accepted.dropped == [.bufferFull(dropped: 2, limit: 1_000)])
                #expect(reassembler.messageIDs == [3])
                return
            }
        }
        Issue.record("message 2 was never dropped")
    }

    @Test func silentMessagesTimeOut() throws {
        var reassembler = Reassembler(configuration: tiny)  // 15 s
        _ = try reassembler.accept(Self.piece(0, 0, of: 3, [1]), now: at(1_000))
        _ = try reassembler.accept(Self.piece(1, 0, of: 3, [1]), now: at(2_000))
        #expect(reassembler.nextDeadline == at(16_000))
        #expect(reassembler.expire(now: at(15_999)).isEmpty)
        // A duplicate is a sign of life too.
        _ = try reassembler.accept(Self.piece(1, 0, of: 3, [1]), now: at(10_000))
        #expect(reassembler.expire(now: at(16_000)) == [.messageTimedOut(message: 0)])
        #expect(reassembler.nextDeadline == at(25_000))
        #expect(reassembler.expire(now: at(25_000)) == [.messageTimedOut(message: 1)])
        #expect(reassembler.nextDeadline == nil && reassembler.bufferedBytes == 0)
    }
}

extension LinkFragment {
    /// The same fragment with the bits of its first payload byte flipped.
    func flipped() -> LinkFragment {
        var copy = self
        copy.payload = [~payload.first!] + payload.dropFirst()
        return copy
    }
}
