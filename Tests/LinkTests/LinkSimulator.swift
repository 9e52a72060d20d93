import Link
import TenderTestSupport

/// A deterministic in-memory link between two `DatagramLink`s: each direction loses,
/// duplicates, delays (so reorders) and corrupts datagrams as its `Channel` says, drawing
/// from one seeded generator. Time jumps from event to event (an arrival or a deadline).
struct LinkSimulator {
    struct Channel {
        var loss = 0.0
        var duplication = 0.0
        var corruption = 0.0
        /// Milliseconds from sending to arrival (about one connection interval), plus up to
        /// `jitter` more (reordering).
        var latency: Int64 = 30
        var jitter: Int64 = 0
        /// Milliseconds each datagram occupies the channel: a 251-byte LE packet on the 1M
        /// PHY with its acknowledgement takes about 2.5 ms.
        var spacing: Int64 = 2
        /// Every `stallPeriod` ms the channel carries nothing for `stallLength` ms (a host that
        /// stops running the radio's process for a while: the BLE lab's guests on a busy
        /// machine); what would leave meanwhile leaves after, in order.
        var stallPeriod: Int64 = 0
        var stallLength: Int64 = 0

        static let perfect = Channel()
        static func lossy(_ loss: Double) -> Channel {
            Channel(loss: loss, duplication: 0.02, jitter: 20)
        }
    }

    enum Side: Hashable { case central, peripheral }

    struct Totals {
        var sent = 0
        var lost = 0
        var delivered: [DeliveredMessage] = []
        var acknowledged: [UInt16] = []
        var errors: [LinkError] = []
    }

    private struct InFlight {
        var arrival: Int64
        var order: Int
        var to: Side
        var bytes: [UInt8]
    }

    var central: DatagramLink
    var peripheral: DatagramLink
    var toPeripheral: Channel
    var toCentral: Channel
    private(set) var now = at(0)
    private var generator: SeededGenerator
    private var queue: [InFlight] = []
    private var order = 0
    private var busyUntil: [Side: Int64] = [:]
    /// What each side sent and received.
    private(set) var totals: [Side: Totals] = [.central: Totals(), .peripheral: Totals()]
    /// Steps taken (arrivals and deadlines), a bound on work.
    private(set) var steps = 0

    init(
        configuration: LinkConfiguration = .standard, toPeripheral: Channel = .perfect,
        toCentral: Channel = .perfect, seed: UInt64 = 1, link: UInt32 = 0x5EED_0001
    ) throws {
        central = try DatagramLink(id: link, configuration: configuration)
        peripheral = try DatagramLink(id: link, configuration: configuration)
        self.toPeripheral = toPeripheral
        self.toCentral = toCentral
        generator = SeededGenerator(seed: seed)
    }

    func link(_ side: Side) -> DatagramLink { side == .central ? central : peripheral }

    mutating func send(_ bytes: [UInt8], from side: Side) throws {
        let datagrams =
            side == .central
            ? try central.send(bytes, now: now) : try peripheral.send(bytes, now: now)
        transmit(datagrams, from: side)
    }

    /// Advances to the next arrival or deadline and handles everything due then. False when
    /// nothing is left to happen.
    mutating func step() -> Bool {
        let deadlines = [central.nextDeadline, peripheral.nextDeadline].compactMap { $0 }
        let candidates =
            deadlines.map(\.milliseconds) + (queue.map(\.arrival).min().map { [$0] } ?? [])
        guard let next = candidates.min() else { return false }
        now = LinkInstant(milliseconds: max(now.milliseconds, next))
        steps += 1
        let due = queue.filter { $0.arrival <= now.milliseconds }.sorted {
            ($0.arrival, $0.order) < ($1.arrival, $1.order)
        }
        queue.removeAll { $0.arrival <= now.milliseconds }
        for datagram in due {
            let events =
                datagram.to == .central
                ? central.receive(datagram.bytes, now: now)
                : peripheral.receive(datagram.bytes, now: now)
            record(events, at: datagram.to)
        }
        record(central.tick(now: now), at: .central)
        record(peripheral.tick(now: now), at: .peripheral)
        return true
    }

    /// Steps until `done` holds or nothing is left; false when `maxSteps` ran out first.
    @discardableResult
    mutating func run(maxSteps: Int = 1_000_000, until done: (LinkSimulator) -> Bool) -> Bool {
        var taken = 0
        while !done(self) {
            guard taken < maxSteps, step() else { return false }
            taken += 1
        }
        return true
    }

    private mutating func record(_ events: LinkEvents, at side: Side) {
        totals[side]!.delivered += events.delivered
        totals[side]!.acknowledged += events.acknowledged
        totals[side]!.errors += events.errors
        transmit(events.datagrams, from: side)
    }

    private mutating func transmit(_ datagrams: [[UInt8]], from side: Side) {
        let channel = side == .central ? toPeripheral : toCentral
        let destination: Side = side == .central ? .peripheral : .central
        for datagram in datagrams {
            totals[side]!.sent += 1
            var departure = max(now.milliseconds, busyUntil[side, default: 0])
            if channel.stallPeriod > 0 {
                let phase = departure % channel.stallPeriod
                if phase < channel.stallLength { departure += channel.stallLength - phase }
            }
            busyUntil[side] = departure + channel.spacing
            guard !chance(channel.loss) else {
                totals[side]!.lost += 1
                continue
            }
            let copies = chance(channel.duplication) ? 2 : 1
            for _ in 0..<copies {
                var bytes = datagram
                if chance(channel.corruption), !bytes.isEmpty {
                    let bit = Int.random(in: 0..<(bytes.count * 8), using: &generator)
                    bytes[bit / 8] ^= 1 << UInt8(bit % 8)
                }
                let delay =
                    channel.jitter > 0 ? Int64.random(in: 0...channel.jitter, using: &generator) : 0
                order += 1
                queue.append(
                    InFlight(
                        arrival: departure + channel.latency + delay, order: order,
                        to: destination, bytes: bytes))
            }
        }
    }

    private mutating func chance(_ probability: Double) -> Bool {
        probability > 0 && Double.random(in: 0..<1, using: &generator) < probability
    }
}
