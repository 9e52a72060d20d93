import TenderTestSupport
import Testing

@testable import Link

/// What a hostile or broken peer can send: garbage, truncated frames, floods of message ids
/// and of link ids. The counters stay within the bounds after every datagram, nothing is
/// delivered that was not sent whole, and a receiver answers each datagram with one ack at
/// most (no amplification). `tiny`: 1,000-byte messages, 4 in flight, 3 links.
struct HostileInputTests {
    /// The bounds of one link under `tiny`.
    static func expectWithinBounds(_ counters: LinkCounters, links: Int = 1) {
        #expect(counters.bufferedBytes <= links * tiny.maxMessageBytes)
        #expect(counters.messagesInFlight <= links * tiny.maxMessagesInFlight)
    }

    /// Random datagrams, half of them with a valid type and this link's id so they reach past
    /// the first checks. (A random frame is a whole one-fragment message once in 2^16 or so;
    /// these seeds make none.)
    static func garbage(_ count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { position in
            var bytes = generator.bytes(Int.random(in: 0...40, using: &generator))
            if position % 2 == 0, bytes.count >= 11 {
                bytes[0] = UInt8.random(in: 1...3, using: &generator)
                bytes.replaceSubrange(1..<5, with: [0, 0, 0, 7])
                bytes[5] = 0  // message ids near 0, inside the window
            }
            return bytes
        }
    }

    @Test func garbageLeavesTheBoundsAlone() throws {
        var link = try DatagramLink(id: 7, configuration: tiny)
        var table = try LinkTable(configuration: tiny)
        for (position, datagram) in Self.garbage(20_000, seed: 11).enumerated() {
            let now = at(Int64(position))
            let events = link.receive(datagram, now: now)
            #expect(events.datagrams.count <= 1 && events.delivered.isEmpty)
            let received = table.receive(datagram, now: now)
            #expect(received.events.datagrams.count <= 1 && received.events.delivered.isEmpty)
            Self.expectWithinBounds(link.counters)
            Self.expectWithinBounds(table.counters, links: tiny.maxLinks)
            #expect(table.count <= tiny.maxLinks)
        }
        #expect(link.counters.totalErrors > 10_000)
        _ = link.tick(now: at(1_000_000))
        #expect(link.counters.bufferedBytes == 0 && link.counters.messagesInFlight == 0)
    }

    /// Every real frame cut short before the end of its header is refused as truncated.
    @Test func truncatedHeadersAreRefused() throws {
        var (central, peripheral) = try WindowedDeliveryTests.pair(tiny)
        let data = try central.send(message(50), now: at(0))
        let acknowledgements = feed(data, to: &peripheral).datagrams
        let close = peripheral.close(.timeout)
        for frame in data + acknowledgements + [close] {
            let needed = [11, 9, 6][Int(frame[0]) - 1]
            for length in 0..<needed {
                var fresh = try DatagramLink(id: 7, configuration: tiny)
                let events = fresh.receive(Array(frame.prefix(length)), now: at(0))
                let expected = LinkError.truncatedFrame(
                    length: length, needed: length == 0 ? 1 : needed)
                #expect(events.errors == [expected])
            }
        }
    }

    /// First fragments of every message id (40 fragments each, never completed): bounded
    /// throughout, nothing delivered; a real message afterwards still arrives intact.
    @Test func aFloodOfMessageIDs() throws {
        var simulator = try LinkSimulator(configuration: tiny, link: 7)
        let junk = [UInt8](repeating: 0xEE, count: 21)
        var outOfWindow = 0
        for id in UInt16.min...UInt16.max {
            let events = simulator.peripheral.receive(
                fragment(message: id, index: 0, count: 40, payload: junk), now: at(0))
            #expect(events.delivered.isEmpty && events.datagrams.count <= 1)
            outOfWindow += events.errors.filter { $0.kind == .messageOutOfWindow }.count
            Self.expectWithinBounds(simulator.peripheral.counters)
        }
        #expect(outOfWindow > 30_000 && simulator.peripheral.counters.messagesInFlight == 4)
        let bytes = message(300)
        try simulator.send(bytes, from: .central)
        #expect(simulator.run { $0.central.messageInFlight == nil })
        #expect(simulator.totals[.peripheral]!.delivered == [DeliveredMessage(id: 0, bytes: bytes)])
        #expect(simulator.totals[.central]!.acknowledged == [0])
    }

    /// First fragments from 10,000 link ids: at most 3 links and their bounds, nothing
    /// delivered; a real central active every other flood frame keeps its link until its
    /// message is through (then, quiet, it is evicted like any other).
    @Test func aFloodOfLinkIDs() throws {
        var table = try LinkTable(configuration: tiny)
        var central = try DatagramLink(id: 0xC0FFEE, configuration: tiny)
        let bytes = message(200)
        var pending = try central.send(bytes, now: at(0))
        var delivered: [DeliveredMessage] = []
        let junk = [UInt8](repeating: 0xEE, count: 21)
        for flood in UInt32(1)...10_000 {
            let now = at(Int64(flood))
            let received = table.receive(
                fragment(link: flood, message: 0, index: 0, count: 40, payload: junk), now: now)
            #expect(received.events.delivered.isEmpty)
            #expect(received.evicted != 0xC0FFEE || central.messageInFlight == nil)
            #expect(table.count <= tiny.maxLinks)
            Self.expectWithinBounds(table.counters, links: tiny.maxLinks)
            guard flood % 2 == 0 else { continue }
            // The real central writes one datagram, reads the answers, resends on its timer.
            pending += central.tick(now: now).datagrams
            guard !pending.isEmpty else { continue }
            let answer = table.receive(pending.removeFirst(), now: now)
            #expect(answer.link == 0xC0FFEE)
            delivered += answer.events.delivered
            pending += feed(answer.events.datagrams, to: &central, now: now).datagrams
        }
        #expect(delivered == [DeliveredMessage(id: 0, bytes: bytes)])
        #expect(central.messageInFlight == nil && central.counters.timeouts == 0)
        #expect(table.evictions == 10_000 - 2)
    }
}
