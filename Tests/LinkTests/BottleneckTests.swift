import Testing

@testable import Link

/// The lab's collapse in the simulator: the acquired socket takes datagrams at once while the
/// air drains them one by one, so a sender that writes a whole window builds a queue, and a
/// timer that fires on queued (not lost) fragments used to resend whole windows into it.
/// Here the central's datagrams leave through a bottleneck with an unbounded buffer (one per
/// `spacing` ms, as `LinkSimulator.Channel` models the air) and the link runs on its defaults.
/// Asserted: every message arrives once and intact, throughput stays near what the
/// bottleneck carries, and without loss nothing is resent.
struct BottleneckTests {
    /// About the lab's write-without-response ceiling: one 244-byte datagram per 25 ms is
    /// 9.3 kB/s of payload; 15 ms each way besides.
    static let air = LinkSimulator.Channel(latency: 15, spacing: 25)
    /// Payload bytes per simulated second the bottleneck carries at most.
    static var capacity: Double {
        Double(LinkConfiguration.standard.maxPayloadBytes) * 1000 / Double(air.spacing)
    }

    struct Run {
        var bytesPerSecond: Double
        var dataSent: Int
        var retransmissions: Int
        var timeouts: Int
    }

    /// A small message (the probe's "hello"), then `size` bytes from the central alone; each
    /// answered by a short message, as the lab's probe does.
    static func send(
        _ size: Int, channel: LinkSimulator.Channel, acks: LinkSimulator.Channel = .perfect,
        seed: UInt64 = 1, configuration: LinkConfiguration = .standard
    ) throws -> Run {
        var simulator = try LinkSimulator(
            configuration: configuration, toPeripheral: channel, toCentral: acks, seed: seed)
        try simulator.send(message(5, seed: seed), from: .central)
        #expect(simulator.run { $0.totals[.central]!.acknowledged.count == 1 })
        let before = simulator.link(.central).counters
        let began = simulator.now
        let payload = message(size, seed: seed &+ 1)
        try simulator.send(payload, from: .central)
        #expect(simulator.run { $0.totals[.central]!.acknowledged.count == 2 })
        let seconds = Double((simulator.now - began).wholeMilliseconds) / 1000
        let delivered = simulator.totals[.peripheral]!.delivered
        #expect(delivered.map(\.id) == [0, 1])
        #expect(delivered.last?.bytes == payload)
        #expect(simulator.totals[.central]!.errors.isEmpty)
        #expect(simulator.totals[.peripheral]!.errors.isEmpty)
        let after = simulator.link(.central).counters
        return Run(
            bytesPerSecond: Double(size) / max(seconds, 0.001),
            dataSent: (after.datagramsSent - after.acksSent)
                - (before.datagramsSent - before.acksSent),
            retransmissions: after.retransmissions - before.retransmissions,
            timeouts: after.timeouts - before.timeouts)
    }

    @Test(arguments: [30_000, 100_000])
    func aQueueDoesNotCollapseTheLink(size: Int) throws {
        let run = try Self.send(size, channel: Self.air)
        print(
            "bottleneck \(size) B: \(Int(run.bytesPerSecond)) B/s of \(Int(Self.capacity)), \(run.dataSent) data datagrams, \(run.retransmissions) resent, \(run.timeouts) timeouts"
        )
        #expect(run.retransmissions == 0 && run.timeouts == 0)
        #expect(run.bytesPerSecond >= 0.8 * Self.capacity)
    }

    /// With loss as well: still delivered once and intact, and no window-sized resends
    /// (resent fragments stay a small multiple of those lost).
    @Test(arguments: [UInt64(1), 2, 3])
    func aLossyQueueDeliversWithoutFlooding(seed: UInt64) throws {
        var lossy = Self.air
        lossy.loss = 0.05
        let run = try Self.send(30_000, channel: lossy, seed: seed)
        print(
            "bottleneck, 5 % loss, seed \(seed): \(Int(run.bytesPerSecond)) B/s, \(run.retransmissions) resent, \(run.timeouts) timeouts"
        )
        let fragments = (30_000 + 232) / 233
        #expect(run.retransmissions <= fragments / 4)
        #expect(run.bytesPerSecond >= 0.4 * Self.capacity)
    }

    /// A host that stops running the radio for 1.5 s in every 3 (both ways, as the lab's
    /// guests do on a busy machine): timers fire on fragments that are only late. Delivered
    /// once and intact, at least half the fragments not resent, and still moving at a good
    /// part of what the air carries while it runs.
    @Test func aStallingHostDoesNotCollapseTheLink() throws {
        var air = Self.air
        air.stallPeriod = 3_000
        air.stallLength = 1_500
        var back = LinkSimulator.Channel.perfect
        back.stallPeriod = 3_000
        back.stallLength = 1_500
        let run = try Self.send(30_000, channel: air, acks: back)
        print(
            "bottleneck, stalls: \(Int(run.bytesPerSecond)) B/s, \(run.retransmissions) resent, \(run.timeouts) timeouts"
        )
        #expect(run.retransmissions <= (30_000 + 232) / 233 / 2)
        #expect(run.bytesPerSecond >= 0.25 * Self.capacity)
    }

    /// A message of up to 13 fragments (3,029 bytes: a payment's messages) leaves in one
    /// flight on a fresh link; a longer one waits for the first ack.
    @Test func aSmallMessageLeavesAtOnce() throws {
        var link = try DatagramLink(id: 1)
        #expect(try link.send(message(13 * 233), now: at(0)).count == 13)
        var other = try DatagramLink(id: 1)
        #expect(try other.send(message(13 * 233 + 1), now: at(0)).count == 13)
    }
}
