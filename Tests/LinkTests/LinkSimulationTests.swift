import Testing

@testable import Link

/// Whole transfers over the simulated radio (`LinkSimulator`): delivery exactly once and
/// intact under loss both ways, failure within a bounded number of steps when nothing gets
/// through, and the datagram overhead per delivered byte (printed, not asserted).
struct LinkSimulationTests {
    static let sizes = [0, 1, 233, 234, 1_000, 10_000, 100_000]

    struct Figures {
        var bytes = 0
        var dataSent = 0
        var acksSent = 0
        var retransmissions = 0
        var timeouts = 0
        var milliseconds: Int64 = 0

        mutating func add(_ other: Figures) {
            bytes += other.bytes
            dataSent += other.dataSent
            acksSent += other.acksSent
            retransmissions += other.retransmissions
            timeouts += other.timeouts
            milliseconds += other.milliseconds
        }
    }

    /// Sends each size from the central and, at the same time, the same size back from the
    /// peripheral; checks both arrive once and intact; returns the central's figures.
    static func transfer(
        sizes: [Int], channel: LinkSimulator.Channel, seed: UInt64,
        configuration: LinkConfiguration = .standard
    ) throws -> Figures {
        var simulator = try LinkSimulator(
            configuration: configuration, toPeripheral: channel, toCentral: channel, seed: seed)
        var figures = Figures()
        for (position, size) in sizes.enumerated() {
            let outbound = message(size, seed: seed &+ UInt64(position))
            let inbound = message(size, seed: ~seed &- UInt64(position))
            try simulator.send(outbound, from: .central)
            try simulator.send(inbound, from: .peripheral)
            let finished = simulator.run { simulator in
                simulator.totals[.central]!.acknowledged.count == position + 1
                    && simulator.totals[.peripheral]!.acknowledged.count == position + 1
            }
            #expect(finished, "size \(size), \(channel), seed \(seed)")
            #expect(simulator.totals[.peripheral]!.delivered.last?.bytes == outbound)
            #expect(simulator.totals[.central]!.delivered.last?.bytes == inbound)
            figures.bytes += size
        }
        // Nothing delivered twice, nothing refused, nothing left behind.
        for side in [LinkSimulator.Side.central, .peripheral] {
            let totals = simulator.totals[side]!
            #expect(totals.delivered.map(\.id) == (0..<sizes.count).map(UInt16.init))
            #expect(totals.errors.isEmpty, "\(totals.errors)")
            #expect(simulator.link(side).counters.bufferedBytes == 0)
        }
        let central = simulator.link(.central).counters
        let peripheral = simulator.link(.peripheral).counters
        figures.dataSent = central.datagramsSent - central.acksSent
        figures.acksSent = peripheral.acksSent
        figures.retransmissions = central.retransmissions
        figures.timeouts = central.timeouts
        figures.milliseconds = simulator.now.milliseconds
        return figures
    }

    @Test(arguments: [0.0, 0.1, 0.2, 0.3])
    func everySizeArrivesOnceAndIntactUnderLoss(loss: Double) throws {
        for seed in UInt64(1)...3 {
            _ = try Self.transfer(sizes: Self.sizes, channel: .lossy(loss), seed: seed)
        }
    }

    /// With a window of 8 as well: the acks come twice as often.
    @Test func aSmallerWindowDeliversToo() throws {
        var narrow = LinkConfiguration.standard
        narrow.window = 8
        _ = try Self.transfer(
            sizes: Self.sizes, channel: .lossy(0.2), seed: 9, configuration: narrow)
    }

    /// Nothing gets through: the message fails with `retriesExhausted` at the ninth timeout
    /// (eight resends), 15.5 s after it was sent; the simulator takes exactly those nine steps.
    @Test func aDeadLinkFailsWithinBoundedSteps() throws {
        let dead = LinkSimulator.Channel(loss: 1)
        var simulator = try LinkSimulator(toPeripheral: dead, toCentral: dead)
        try simulator.send(message(10_000), from: .central)
        let failed = simulator.run(maxSteps: 100) { !$0.totals[.central]!.errors.isEmpty }
        #expect(failed)
        #expect(simulator.totals[.central]!.errors == [.retriesExhausted(message: 0)])
        #expect(simulator.steps == 9 && simulator.now == at(15_500))
        #expect(simulator.central.nextDeadline == nil)
        #expect(simulator.totals[.peripheral]!.delivered.isEmpty)
    }

    /// Corruption (without the radio's own CRC, which BLE has): the links stay within their
    /// bounds, and each message id is delivered at most once.
    @Test func corruptionStaysWithinBounds() throws {
        var corrupting = LinkSimulator.Channel.lossy(0.1)
        corrupting.corruption = 0.05
        var simulator = try LinkSimulator(toPeripheral: corrupting, toCentral: corrupting, seed: 4)
        for size in [0, 500, 20_000] {
            try? simulator.send(message(size), from: .central)
            simulator.run(maxSteps: 20_000) { $0.central.messageInFlight == nil }
            let counters = simulator.peripheral.counters
            #expect(counters.bufferedBytes <= LinkConfiguration.standard.maxMessageBytes)
            #expect(counters.messagesInFlight <= LinkConfiguration.standard.maxMessagesInFlight)
        }
        let ids = simulator.totals[.peripheral]!.delivered.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    /// Datagrams per delivered byte, data and acks, at each loss rate and window, on an
    /// ordered channel (a BLE connection keeps order; its losses are writes and
    /// notifications the stack drops) and on one that also reorders and repeats. Without
    /// loss or reordering nothing is resent and the receiver acks every `ackInterval` fragments.
    @Test func overhead() throws {
        try printOverhead(
            "100 kB + 10 kB + 1 kB", sizes: [100_000, 10_000, 1_000], seeds: 3, windows: [8, 16])
        try printOverhead(
            "a payment's size: 200 B + 5 kB + 300 B", sizes: [200, 5_000, 300], seeds: 20,
            windows: [16])
    }

    private func printOverhead(
        _ name: String, sizes: [Int], seeds: UInt64, windows: [Int]
    )
        throws
    {
        print("link overhead: \(name) each way at once, mean of \(seeds) seeds, 244-byte datagrams")
        print(
            "window | channel | data datagrams | ideal | acks | resent | timeouts | datagrams per kB | simulated s"
        )
        let ideal = sizes.reduce(0) { $0 + max(1, ($1 + 232) / 233) }
        for window in windows {
            var configuration = LinkConfiguration.standard
            configuration.window = window
            let channels: [(String, LinkSimulator.Channel)] =
                [0.0, 0.1, 0.2, 0.3].map {
                    ("\(Int($0 * 100))% loss", LinkSimulator.Channel(loss: $0))
                } + [("10% loss, reordered, 2% repeated", .lossy(0.1))]
            for (channelName, channel) in channels {
                var total = Figures()
                for seed in 1...seeds {
                    total.add(
                        try Self.transfer(
                            sizes: sizes, channel: channel, seed: seed,
                            configuration: configuration))
                }
                if channel.loss == 0 {
                    let interval = configuration.ackInterval
                    let acks = sizes.reduce(0) {
                        $0 + (max(1, ($1 + 232) / 233) + interval - 1) / interval
                    }
                    #expect(total.retransmissions == 0 && total.timeouts == 0)
                    #expect(total.acksSent == Int(seeds) * acks)
                    #expect(total.dataSent == Int(seeds) * ideal)
                }
                let count = Int(seeds)
                let perKB = Double(total.dataSent + total.acksSent) * 1000 / Double(total.bytes)
                let seconds = Double(total.milliseconds) / 1000 / Double(count)
                print(
                    "\(window) | \(channelName) | \(total.dataSent / count) | \(ideal) | \(total.acksSent / count) | \(total.retransmissions / count) | \(total.timeouts / count) | \(rounded(perKB)) | \(rounded(seconds))"
                )
            }
        }
    }

    private func rounded(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
