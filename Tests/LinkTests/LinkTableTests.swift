import Testing

@testable import Link

/// A peripheral's links: opened by a first data frame, told apart by id, at most `maxLinks`
/// (least recently active evicted), forgotten when closed. `tiny` allows 3 links.
struct LinkTableTests {
    static func opening(_ link: UInt32, _ payload: [UInt8] = [1]) -> [UInt8] {
        fragment(link: link, message: 0, index: 0, count: 1, payload: payload)
    }

    @Test func aDataFrameOpensALink() throws {
        var table = try LinkTable(configuration: tiny)
        let received = table.receive(Self.opening(0xA), now: at(0))
        #expect(received.link == 0xA && received.evicted == nil)
        #expect(received.events.delivered == [DeliveredMessage(id: 0, bytes: [1])])
        #expect(acks(in: received.events.datagrams) == [LinkAck(link: 0xA, message: 0, next: 1)])
        #expect(table.linkIDs == [0xA] && table.link(0xA)?.counters.messagesDelivered == 1)
        // The peripheral answers on the same link.
        let reply = try table.send([9, 9], on: 0xA, now: at(0))
        #expect(fragments(in: reply).map(\.link) == [0xA])
    }

    /// Acks and closes of unknown links, data of a message a fresh link would not take, and
    /// garbage open nothing.
    @Test func nothingElseOpensALink() throws {
        var table = try LinkTable(configuration: tiny)
        let strays = [
            ack(link: 0xB, next: 1),
            LinkFrame.close(LinkClose(link: 0xB, reason: .done)).encoded(),
            fragment(link: 0xB, message: 4, index: 0, count: 1, payload: [1]),
            fragment(link: 0xB, message: 0, index: 5, count: 2, payload: [1]),
            [0x01, 0, 0],
            [0x7F],
            [UInt8](repeating: 1, count: 33),
        ]
        var errors: [LinkError.Kind] = []
        for stray in strays {
            let received = table.receive(stray, now: at(0))
            #expect(received.link == nil && received.events.delivered.isEmpty)
            errors += received.events.errors.map(\.kind)
        }
        #expect(table.count == 0)
        #expect(
            errors == [.indexOutOfRange, .truncatedFrame, .unknownFrameType, .datagramTooLarge])
        #expect(table.counters.foreignFrames == 3 && table.counters.datagramsReceived == 7)
        #expect(thrown { try table.send([1], on: 0xB, now: at(0)) } == .unknownLink(0xB))
    }

    @Test func theLeastRecentlyActiveLinkMakesRoom() throws {
        var table = try LinkTable(configuration: tiny)
        for link in UInt32(1)...3 { _ = table.receive(Self.opening(link), now: at(0)) }
        // Link 1 stays busy; 2 is the least recently active.
        _ = table.receive(
            fragment(link: 1, message: 1, index: 0, count: 1, payload: [2]), now: at(1))
        let received = table.receive(Self.opening(4), now: at(2))
        #expect(received.evicted == 2 && table.linkIDs == [1, 3, 4])
        #expect(table.evictions == 1)
        // Sending counts as activity too.
        _ = try table.send([1], on: 3, now: at(3))
        #expect(table.receive(Self.opening(5), now: at(4)).evicted == 1)
        // The evicted link's totals stay in the table's.
        #expect(table.counters.messagesDelivered == 6)
    }

    @Test func aClosedLinkIsForgotten() throws {
        var table = try LinkTable(configuration: tiny)
        _ = table.receive(Self.opening(1), now: at(0))
        _ = table.receive(Self.opening(2), now: at(0))
        let closed = table.receive(
            LinkFrame.close(LinkClose(link: 1, reason: .done)).encoded(), now: at(1))
        #expect(closed.link == 1 && closed.events.closed == .done && table.linkIDs == [2])
        #expect(table.close(2, reason: .busy) == [0x03, 0, 0, 0, 2, 0x02])
        #expect(table.count == 0 && table.close(2, reason: .busy) == nil)
    }

    @Test func ticksReachEveryLink() throws {
        var table = try LinkTable(configuration: tiny)
        _ = table.receive(Self.opening(1), now: at(0))
        _ = table.receive(Self.opening(2), now: at(0))
        _ = try table.send(message(100), on: 1, now: at(0))
        _ = table.receive(
            fragment(link: 2, message: 1, index: 0, count: 3, payload: [1]), now: at(100))
        // Link 2 owes an ack for its in-order fragment (the receiver's ack delay), then link 1
        // resends its first window (4 fragments: what a timeout leaves at least).
        #expect(table.nextDeadline == at(150))
        let late = table.tick(now: at(150))
        #expect(late.map(\.link) == [2] && acks(in: late[0].events.datagrams).map(\.next) == [1])
        #expect(table.nextDeadline == at(500))
        #expect(table.tick(now: at(499)).isEmpty)
        let resent = table.tick(now: at(500))
        #expect(resent.map(\.link) == [1] && fragments(in: resent[0].events.datagrams).count == 4)
        let timedOut = table.tick(now: at(15_100))
        #expect(timedOut.flatMap(\.events.errors).contains(.messageTimedOut(message: 1)))
        #expect(table.counters.bufferedBytes == 0)
    }
}
