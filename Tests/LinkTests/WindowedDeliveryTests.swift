import Testing

@testable import Link

/// The sender and receiver machines step by step: when acks go out, what a gap or a timeout
/// resends, backoff, failure, a lost final ack, a sender that moves on, closing.
struct WindowedDeliveryTests {
    /// Two ends of link 7 with the standard configuration (window 16, 13 fragments before the
    /// first ack, acks every 2).
    static func pair(
        _ configuration: LinkConfiguration = .standard
    ) throws -> (
        central: DatagramLink, peripheral: DatagramLink
    ) {
        (
            try DatagramLink(id: 7, configuration: configuration),
            try DatagramLink(id: 7, configuration: configuration)
        )
    }

    /// Carries datagrams both ways without loss until neither side has anything to say.
    static func exchange(
        _ first: [[UInt8]], from central: inout DatagramLink, to peripheral: inout DatagramLink,
        now: LinkInstant = at(0)
    ) -> (atCentral: LinkEvents, atPeripheral: LinkEvents, dataSent: Int, acksSent: Int) {
        var toPeripheral = first
        var atCentral = LinkEvents()
        var atPeripheral = LinkEvents()
        var dataSent = first.count
        var acksSent = 0
        while !toPeripheral.isEmpty {
            let received = feed(toPeripheral, to: &peripheral, now: now)
            atPeripheral.append(received)
            acksSent += received.datagrams.count
            let answered = feed(received.datagrams, to: &central, now: now)
            atCentral.append(answered)
            dataSent += answered.datagrams.count
            toPeripheral = answered.datagrams
        }
        return (atCentral, atPeripheral, dataSent, acksSent)
    }

    @Test func withoutLossAcksComeEveryTwoFragmentsAndAtTheEnd() throws {
        var (central, peripheral) = try Self.pair()
        let bytes = message(40 * 233 - 100)  // 40 fragments
        let first = try central.send(bytes, now: at(0))
        #expect(first.count == 13)
        let result = Self.exchange(first, from: &central, to: &peripheral)
        #expect(result.dataSent == 40 && result.acksSent == 20)
        #expect(result.atPeripheral.delivered == [DeliveredMessage(id: 0, bytes: bytes)])
        #expect(result.atCentral.acknowledged == [0] && central.messageInFlight == nil)
        #expect(central.counters.retransmissions == 0 && central.nextDeadline == nil)
        #expect(peripheral.counters.bytesDelivered == bytes.count)
    }

    /// A lost fragment: after the in-order pair's ack the receiver acks the gap three times;
    /// the first ack reads as progress (and slides the window), the gap acks are duplicate
    /// acks, and the second of those resends the hole.
    @Test func aGapDrawsThreeAcksAndOneResend() throws {
        var (central, peripheral) = try Self.pair()
        let first = try central.send(message(10 * 233), now: at(0))
        var withoutTwo = first
        withoutTwo.remove(at: 2)
        let received = feed(withoutTwo, to: &peripheral)
        let gapAcks = received.datagrams
        #expect(acks(in: gapAcks).map(\.next) == [2, 2, 2, 2])
        // All 10 fragments are out: the progress ack has nothing new to send.
        #expect(feed(Array(gapAcks.prefix(2)), to: &central, now: at(100)).datagrams.isEmpty)
        #expect(feed([gapAcks[2]], to: &central, now: at(100)).datagrams == [first[2]])
        #expect(feed([gapAcks[3]], to: &central, now: at(100)).datagrams.isEmpty)
        #expect(central.counters.retransmissions == 1)
        // The first ack measured a 100 ms round trip: 100 + 4 × 50 ms.
        #expect(central.nextDeadline == at(400))
        let done = Self.exchange([first[2]], from: &central, to: &peripheral)
        #expect(done.atPeripheral.delivered.count == 1)
        #expect(done.atCentral.acknowledged == [0])
    }

    /// One duplicate ack (a datagram the radio repeated) resends nothing.
    @Test func oneDuplicateAckResendsNothing() throws {
        var (central, peripheral) = try Self.pair()
        let first = try central.send(message(20 * 233), now: at(0))
        let periodic = feed(first, to: &peripheral).datagrams
        #expect(acks(in: periodic).map(\.next) == [2, 4, 6, 8, 10, 12])
        // Each ack slides the window and grows it by what it acknowledged (slow start): the
        // 7 fragments left go out.
        #expect(feed(periodic, to: &central).datagrams.count == 7)
        #expect(feed(periodic, to: &central).isEmpty)
        #expect(central.counters.retransmissions == 0)
    }

    /// After a resend on duplicate acks, an ack that stops short of what was out points at
    /// the next hole, which is resent at once.
    @Test func aPartialAckResendsTheNextHole() throws {
        var (central, peripheral) = try Self.pair()
        let first = try central.send(message(12 * 233), now: at(0))
        let arrived = first.enumerated().filter { ![2, 5].contains($0.offset) }.map(\.element)
        let gapAcks = feed(arrived, to: &peripheral).datagrams
        #expect(acks(in: gapAcks).map(\.next) == [2, 2, 2, 2])
        #expect(feed(gapAcks, to: &central).datagrams == [first[2]])
        let partial = feed([first[2]], to: &peripheral).datagrams
        #expect(acks(in: partial).map(\.next) == [5])
        #expect(feed(partial, to: &central).datagrams == [first[5]])
        let done = Self.exchange([first[5]], from: &central, to: &peripheral)
        #expect(done.atCentral.acknowledged == [0] && central.counters.timeouts == 0)
    }

    /// Timeouts resend from the first unacknowledged fragment within a congestion window
    /// halved each time (13, so 6, then 4: never fewer), the timeout doubles up to 2 s, and
    /// the ninth timeout in a row (after eight resends) fails the message.
    @Test func timeoutsGoBackAndBackOffThenFail() throws {
        var (central, _) = try Self.pair()
        let first = try central.send(message(10 * 233), now: at(0))
        #expect(central.tick(now: at(499)).isEmpty)
        var deadlines: [Int64] = []
        var failure: [LinkError] = []
        var resent: [Int] = []
        while let deadline = central.nextDeadline {
            deadlines.append(deadline.milliseconds)
            let events = central.tick(now: deadline)
            if events.errors.isEmpty {
                #expect(events.datagrams == Array(first.prefix(events.datagrams.count)))
                resent.append(events.datagrams.count)
            }
            failure = events.errors
        }
        #expect(resent == [6, 4, 4, 4, 4, 4, 4, 4])
        #expect(deadlines == [500, 1_500, 3_500, 5_500, 7_500, 9_500, 11_500, 13_500, 15_500])
        #expect(failure == [.retriesExhausted(message: 0)])
        #expect(central.messageInFlight == nil && central.counters.retransmissions == 34)
        #expect(central.counters.errors(.retriesExhausted) == 1 && central.counters.timeouts == 9)
    }

    /// Resends start from the first fragment not acknowledged, within half the congestion
    /// window (16 after an ack of 3 in slow start, so 8: the 7 left).
    @Test func resendsStartAtTheFirstUnacknowledged() throws {
        var (central, _) = try Self.pair()
        let first = try central.send(message(10 * 233), now: at(0))
        _ = feed([ack(next: 3)], to: &central, now: at(0))
        let deadline = try #require(central.nextDeadline)
        #expect(central.tick(now: deadline).datagrams == Array(first[3...]))
    }

    /// The timeout follows measured round trips (RFC 6298), never below 200 ms, and an ack
    /// after a resend is not measured (Karn's rule).
    @Test func theTimeoutFollowsMeasuredRoundTrips() throws {
        var (central, _) = try Self.pair()
        _ = try central.send(message(20 * 233), now: at(0))  // fragments 0...12
        _ = feed([ack(next: 8)], to: &central, now: at(100))  // 100 ms: 100 + 4 × 50
        #expect(central.nextDeadline == at(400))
        _ = feed([ack(next: 20)], to: &central, now: at(150))  // 19 went at 100: 50 ms
        _ = try central.send([1], now: at(1_000))  // 93.75 + 4 × 50 = 293.75
        #expect(central.nextDeadline == at(1_294))
        var (quick, _) = try Self.pair()
        _ = try quick.send([1], now: at(0))
        _ = feed([ack(next: 1)], to: &quick, now: at(10))  // 10 + 4 × 5: below the floor
        _ = try quick.send([2], now: at(100))
        #expect(quick.nextDeadline == at(300))
        var (resent, _) = try Self.pair()
        _ = try resent.send([1], now: at(0))
        _ = resent.tick(now: at(500))
        _ = feed([ack(next: 1)], to: &resent, now: at(510))
        _ = try resent.send([2], now: at(1_000))
        #expect(resent.nextDeadline == at(1_500))  // nothing measured yet
    }

    @Test func progressResetsTheBackoff() throws {
        var (central, _) = try Self.pair()
        _ = try central.send(message(10 * 233), now: at(0))
        _ = central.tick(now: at(500))
        _ = central.tick(now: at(1_500))
        #expect(central.nextDeadline == at(3_500))
        _ = feed([ack(next: 4)], to: &central, now: at(2_000))
        #expect(central.nextDeadline == at(2_500))
    }

    /// The final ack is lost: the sender resends, the receiver answers with the final ack
    /// again and delivers nothing twice.
    @Test func aLostFinalAckIsRepeated() throws {
        var (central, peripheral) = try Self.pair()
        let bytes = message(3 * 233)
        let first = try central.send(bytes, now: at(0))
        let received = feed(first, to: &peripheral)
        #expect(
            received.delivered.count == 1 && acks(in: received.datagrams).map(\.next) == [2, 3])
        let resent = central.tick(now: at(500)).datagrams
        #expect(resent == first)
        let again = feed(resent, to: &peripheral, now: at(500))
        #expect(again.delivered.isEmpty && acks(in: again.datagrams).map(\.next) == [3, 3])
        #expect(feed(again.datagrams, to: &central, now: at(500)).acknowledged == [0])
        #expect(
            peripheral.counters.duplicateFragments == 3
                && peripheral.counters.messagesDelivered == 1)
    }

    /// A sender that gave up on message 0 sends message 1: the receiver delivers it and drops
    /// what it held of message 0.
    @Test func theReceiverFollowsASenderThatMovedOn() throws {
        var (central, peripheral) = try Self.pair()
        let first = try central.send(message(3 * 233), now: at(0))
        _ = feed([first[0]], to: &peripheral)
        #expect(peripheral.counters.messagesInFlight == 1)
        var now = at(0)
        while let deadline = central.nextDeadline {
            now = deadline
            _ = central.tick(now: now)
        }
        let next = try central.send([1, 2, 3], now: now)
        let received = feed(next, to: &peripheral, now: now)
        #expect(received.delivered == [DeliveredMessage(id: 1, bytes: [1, 2, 3])])
        #expect(peripheral.counters.messagesInFlight == 0 && peripheral.counters.bufferedBytes == 0)
        #expect(peripheral.counters.abandonedMessages == 1)
        #expect(feed(received.datagrams, to: &central, now: now).acknowledged == [1])
    }

    @Test func acksThatMakeNoSenseAreRefused() throws {
        var (central, peripheral) = try Self.pair()
        #expect(
            feed([ack(message: 0, next: 1)], to: &central).errors == [
                .ackForUnsentMessage(message: 0)
            ])
        #expect(
            feed([ack(message: 9, next: 1)], to: &central).errors == [
                .ackForUnsentMessage(message: 9)
            ])
        let first = try central.send(message(3 * 233), now: at(0))
        #expect(
            feed([ack(message: 0, next: 4)], to: &central).errors
                == [.ackOutOfRange(message: 0, next: 4, count: 3)])
        _ = Self.exchange(first, from: &central, to: &peripheral)
        // A late copy of the final ack of a finished message: nothing to say.
        #expect(feed([ack(message: 0, next: 3)], to: &central).isEmpty)
        #expect(central.counters.totalErrors == 3)
    }

    @Test func oneMessageAtATime() throws {
        var (central, _) = try Self.pair()
        _ = try central.send([1], now: at(0))
        #expect(thrown { try central.send([2], now: at(0)) } == .senderBusy(inFlight: 0))
        var (other, _) = try Self.pair()
        let cap = LinkConfiguration.standard.maxMessageBytes
        #expect(
            thrown { try other.send(message(cap + 1), now: at(0)) }
                == .messageTooLargeToSend(bytes: cap + 1, limit: cap))
        #expect(other.nextMessageID == 0)  // a refused message takes no id
    }

    @Test func closingStopsBothEnds() throws {
        var (central, peripheral) = try Self.pair()
        _ = try central.send(message(3 * 233), now: at(0))
        _ = try peripheral.send([1], now: at(0))
        let close = peripheral.close(.done)
        #expect(close == [0x03, 0, 0, 0, 7, 0x00])
        #expect(peripheral.closedReason == .done && peripheral.nextDeadline == nil)
        let events = feed([close], to: &central)
        #expect(events.closed == .done && central.closedReason == .done)
        #expect(central.nextDeadline == nil && central.messageInFlight == nil)
        #expect(thrown { try central.send([1], now: at(0)) } == .linkClosed(.done))
        #expect(feed([fragment(index: 0, count: 1, payload: [1])], to: &central).isEmpty)
        #expect(central.tick(now: at(10_000)).isEmpty)
        // Closing again says the first reason.
        #expect(central.close(.cancelled) == [0x03, 0, 0, 0, 7, 0x00])
    }

    @Test func otherLinksFramesAreDroppedUnread() throws {
        var (central, _) = try Self.pair()
        let foreign = [
            fragment(link: 8, index: 0, count: 1, payload: [1]),
            fragment(link: 8, index: 9, count: 1, payload: [1]),  // malformed, but not ours
            ack(link: 8, next: 1),
            LinkFrame.close(LinkClose(link: 8, reason: .done)).encoded(),
        ]
        #expect(feed(foreign, to: &central).isEmpty)
        #expect(central.counters.foreignFrames == 4 && central.closedReason == nil)
    }

    @Test func staleAndFarAheadMessages() throws {
        var (central, peripheral) = try Self.pair()
        for bytes in [[UInt8]([1]), [2]] {
            _ = Self.exchange(try central.send(bytes, now: at(0)), from: &central, to: &peripheral)
        }
        // Message 0 again: older than the one last delivered, ignored.
        #expect(
            feed([fragment(message: 0, index: 0, count: 1, payload: [1])], to: &peripheral).isEmpty)
        #expect(peripheral.counters.staleFragments == 1)
        // Message 1 again with another count: it cannot be the message delivered.
        #expect(
            feed([fragment(message: 1, index: 0, count: 2, payload: [2])], to: &peripheral).errors
                == [.conflictingFragment(message: 1, index: 0)])
        // Expected 2; 2...5 are taken, 6 is too far ahead.
        #expect(
            feed([fragment(message: 6, index: 0, count: 1, payload: [1])], to: &peripheral).errors
                == [.messageOutOfWindow(message: 6, expected: 2)])
        #expect(
            feed([fragment(message: 5, index: 0, count: 1, payload: [1])], to: &peripheral)
                .delivered.count == 1)
    }

    /// Message ids wrap after 65,535: 65,538 empty messages, each delivered once, in order.
    @Test func messageIDsWrap() throws {
        var (central, peripheral) = try Self.pair()
        var ids: [UInt16] = []
        for _ in 0..<65_538 {
            let result = Self.exchange(
                try central.send([], now: at(0)), from: &central, to: &peripheral)
            ids += result.atPeripheral.delivered.map(\.id)
        }
        #expect(ids.count == 65_538 && ids.suffix(3) == [65_535, 0, 1])
        #expect(ids.enumerated().allSatisfy { $0.element == UInt16(truncatingIfNeeded: $0.offset) })
        #expect(peripheral.counters.totalErrors == 0 && central.counters.totalErrors == 0)
    }
}
