import Link

/// The Bluetooth link (Sources/Core/Link): datagrams into a `DatagramLink` and a `LinkTable`,
/// whole transfers over a channel the input controls, and SDUs into a `PacketReassembler`.
/// Small limits, so the bounds are within reach: 32-byte datagrams, 600-byte messages,
/// 3 in flight, 3 links, a window of 4.
///
/// Byte 0 picks the mode (its value modulo 3):
/// - 0, raw datagrams: a byte sets the length of a message the link sends first (so acks
///   reach a sender); then, per datagram, a time step (high bit: tick first), a length and
///   the bytes. With bit 2 of byte 0 set, each datagram's link id is made the link's own, so
///   mutations get past the link check.
/// - 1, a transfer: a message each way (lengths from the input, bytes from it too), then one
///   byte per datagram carried: drop, repeat, swap with the next, alter (position, value).
/// - 2, SDUs: bit 2 clear, raw length-prefixed SDUs; set, a message from the rest framed,
///   then its SDUs dropped, repeated, swapped or altered as edits say.
enum LinkTarget {
    static let link = FuzzTarget(
        name: "link",
        summary: "DatagramLink, LinkTable, transfers and PacketReassembler within their bounds",
        run: checkLink, oversizeCheck: linkOversize)

    static let configuration = LinkConfiguration(
        maxDatagramBytes: 32, maxMessageBytes: 600, maxMessagesInFlight: 3, maxLinks: 3,
        window: 4)
    static let packetLimits = try! PacketLimits(mtu: 40, maxMessageBytes: 600)
    static let linkID: UInt32 = 7

    static func checkLink(_ bytes: [UInt8]) {
        var reader = ByteReader(bytes[...])
        let mode = reader.byte()
        switch mode % 3 {
        case 0: rawDatagrams(&reader, ownLinkID: mode & 4 != 0)
        case 1: transfer(&reader)
        default:
            if mode & 4 == 0 { rawSDUs(&reader) } else { framedMessage(&reader) }
        }
    }

    // MARK: Raw datagrams

    private static func rawDatagrams(_ reader: inout ByteReader, ownLinkID: Bool) {
        var link = try! DatagramLink(id: linkID, configuration: configuration)
        var table = try! LinkTable(configuration: configuration)
        var now = LinkInstant(milliseconds: 0)
        var linkDeliveries = DeliveryOrder()
        var tableDeliveries: [UInt32: DeliveryOrder] = [:]
        let sent = Array(repeating: UInt8(0x5A), count: Int(reader.byte()) * 2)
        let first = try! link.send(sent, now: now)
        require(
            first.count == min(configuration.window, max(1, (sent.count + 20) / 21)), "first window"
        )
        while !reader.rest.isEmpty {
            let step = reader.byte()
            var datagram = reader.take(Int(reader.byte()))
            if ownLinkID, datagram.count >= 5, (1...3).contains(datagram[0]) {
                datagram.replaceSubrange(1..<5, with: [0, 0, 0, UInt8(linkID)])
            }
            now = now + .milliseconds(Int(step & 0x7F) * 8)
            if step & 0x80 != 0 {
                linkDeliveries.take(link.tick(now: now))
                require(
                    link.nextDeadline.map { $0 > now } ?? true, "a link deadline already passed")
                for ticked in table.tick(now: now) {
                    tableDeliveries[ticked.link!, default: DeliveryOrder()].take(ticked.events)
                }
                require(
                    table.nextDeadline.map { $0 > now } ?? true, "a table deadline already passed")
            }
            let sending = link.messageInFlight != nil
            let events = link.receive(datagram, now: now)
            // An ack may slide the window and resend the hole; a receiver answers one ack.
            require(
                events.datagrams.count <= (sending ? configuration.window + 1 : 1),
                "\(events.datagrams.count) datagrams for one")
            linkDeliveries.take(events)
            checkBounds(link.counters, links: 1)
            if let other = LinkFrame.peekLink(datagram), other != linkID,
                datagram.count <= configuration.maxDatagramBytes
            {
                require(events.isEmpty, "another link's frame changed something")
            }
            let received = table.receive(datagram, now: now)
            require(
                received.events.datagrams.count <= 1, "the table answered one datagram with more")
            if let evicted = received.evicted { tableDeliveries[evicted] = nil }
            if let id = received.link {
                tableDeliveries[id, default: DeliveryOrder()].take(received.events)
                if received.events.closed != nil { tableDeliveries[id] = nil }
            }
            require(table.count <= configuration.maxLinks, "\(table.count) links")
            for id in table.linkIDs { checkBounds(table.link(id)!.counters, links: 1) }
            checkBounds(table.counters, links: configuration.maxLinks)
        }
        require(
            link.counters.messagesDelivered == linkDeliveries.count,
            "counted \(link.counters.messagesDelivered) deliveries, saw \(linkDeliveries.count)")
    }

    /// Each message delivered on a link is a later one than the last: within the window of
    /// ids the receiver takes, never the same twice.
    private struct DeliveryOrder {
        var last: UInt16?
        var count = 0

        mutating func take(_ events: LinkEvents) {
            for message in events.delivered {
                require(message.bytes.count <= configuration.maxMessageBytes, "over the cap")
                if let last {
                    let ahead = Int(message.id &- last)
                    require(
                        (1...configuration.maxMessagesInFlight).contains(ahead),
                        "message \(message.id) delivered after \(last)")
                }
                last = message.id
                count += 1
            }
        }
    }

    private static func checkBounds(_ counters: LinkCounters, links: Int) {
        require(
            counters.bufferedBytes <= links * configuration.maxMessageBytes,
            "\(counters.bufferedBytes) bytes buffered over \(links) links")
        require(
            counters.messagesInFlight <= links * configuration.maxMessagesInFlight,
            "\(counters.messagesInFlight) messages in flight over \(links) links")
    }

    // MARK: Transfers

    /// What the channel did to the datagrams carried, by the input's say.
    private struct ChannelDamage {
        var drops = 0
        var altered = false
    }

    private static func transfer(_ reader: inout ByteReader) {
        let outbound = reader.take(Int(reader.byte()) * 3 % 601)
        let inbound = reader.take(Int(reader.byte()) % 80)
        var central = try! DatagramLink(id: linkID, configuration: configuration)
        var peripheral = try! DatagramLink(id: linkID, configuration: configuration)
        var now = LinkInstant(milliseconds: 0)
        // In flight: (to the peripheral?, datagram).
        var queue = (try! central.send(outbound, now: now)).map { (true, $0) }
        queue += (try! peripheral.send(inbound, now: now)).map { (false, $0) }
        var atCentral = LinkEvents()
        var atPeripheral = LinkEvents()
        var damage = ChannelDamage()
        var steps = 0
        while steps < 20_000 {
            steps += 1
            guard !queue.isEmpty else {
                let deadlines = [central.nextDeadline, peripheral.nextDeadline].compactMap { $0 }
                guard let next = deadlines.min() else { break }
                now = max(now, next)
                atCentral.append(central.tick(now: now))
                atPeripheral.append(peripheral.tick(now: now))
                queue +=
                    atCentral.datagrams.map { (true, $0) }
                    + atPeripheral.datagrams.map { (false, $0) }
                atCentral.datagrams = []
                atPeripheral.datagrams = []
                continue
            }
            let fate = reader.byte()
            if fate & 4 != 0, queue.count > 1 { queue.swapAt(0, 1) }
            var (toPeripheral, datagram) = queue.removeFirst()
            if fate & 1 != 0 {
                damage.drops += 1
                continue
            }
            if fate & 2 != 0 { queue.append((toPeripheral, datagram)) }
            if fate & 8 != 0, !datagram.isEmpty {
                let position = Int(reader.byte()) % datagram.count
                let value = reader.byte()
                damage.altered = damage.altered || datagram[position] != value
                datagram[position] = value
            }
            now = now + .milliseconds(1)
            let events =
                toPeripheral
                ? peripheral.receive(datagram, now: now) : central.receive(datagram, now: now)
            queue += events.datagrams.map { (!toPeripheral, $0) }
            if toPeripheral { atPeripheral.append(events) } else { atCentral.append(events) }
            atCentral.datagrams = []
            atPeripheral.datagrams = []
            checkBounds(central.counters, links: 1)
            checkBounds(peripheral.counters, links: 1)
        }
        require(steps < 20_000, "the transfer never settled")
        checkTransfer(
            outbound, sentBy: central, acknowledged: atCentral, deliveredAt: atPeripheral, damage)
        checkTransfer(
            inbound, sentBy: peripheral, acknowledged: atPeripheral, deliveredAt: atCentral, damage)
    }

    /// Without altered datagrams: delivered at most once and intact, acknowledged only if
    /// delivered, and failed only after a drop in every round of retries.
    private static func checkTransfer(
        _ message: [UInt8], sentBy sender: DatagramLink, acknowledged: LinkEvents,
        deliveredAt receiver: LinkEvents, _ damage: ChannelDamage
    ) {
        require(sender.messageInFlight == nil, "a message still in flight when all was quiet")
        var order = DeliveryOrder()
        order.take(receiver)
        guard !damage.altered else { return }
        require(
            receiver.delivered.count <= 1, "\(receiver.delivered.count) deliveries of one message")
        if let delivered = receiver.delivered.first {
            require(delivered == DeliveredMessage(id: 0, bytes: message), "delivered other bytes")
        }
        if acknowledged.acknowledged == [0] {
            require(receiver.delivered.count == 1, "acknowledged but never delivered")
        } else {
            require(
                acknowledged.errors.contains(.retriesExhausted(message: 0)),
                "neither acknowledged nor failed")
            // Each timeout round without a drop makes progress (the queue empties before the
            // next deadline), so failing takes a drop in each of maxRetries + 1 rounds.
            require(
                damage.drops > configuration.maxRetries,
                "failed with only \(damage.drops) datagrams lost")
        }
    }

    // MARK: SDUs

    private static func rawSDUs(_ reader: inout ByteReader) {
        var reassembler = PacketReassembler(limits: packetLimits)
        for sdu in reader.lengthPrefixedPieces() {
            if let message = try? reassembler.receive(sdu) {
                // Its start took the id the reassembler expected then.
                let started = reassembler.expected &- 1
                require(message.bytes.count <= packetLimits.maxMessageBytes, "over the cap")
                require(
                    message.id == started, "message \(message.id) delivered, \(started) started")
            }
            require(reassembler.bufferedBytes <= packetLimits.maxMessageBytes, "over the cap held")
        }
    }

    private static func framedMessage(_ reader: inout ByteReader) {
        let edits = (0..<Int(reader.byte() % 4)).map { _ in PartEdit(&reader) }
        let message = Array(reader.rest.prefix(packetLimits.maxMessageBytes))
        var framer = PacketFramer(limits: packetLimits)
        var sdus = try! framer.sdus(for: message)
        require(sdus.allSatisfy { $0.count <= packetLimits.mtu }, "an SDU over the MTU")
        let untouched = sdus
        PartEdit.apply(edits, to: &sdus) { sdu, edit in sdu[edit.position % sdu.count] = edit.value
        }
        var reassembler = PacketReassembler(limits: packetLimits)
        var delivered: [DeliveredMessage] = []
        for sdu in sdus {
            if let message = try? reassembler.receive(sdu) { delivered.append(message) }
            require(reassembler.bufferedBytes <= packetLimits.maxMessageBytes, "over the cap held")
        }
        // An altered SDU may be another message's start. Dropped and repeated ones may make
        // up the declared length with other bytes: the channel is reliable, so the framing
        // does not check for that (the session above refuses what is not signed).
        guard !edits.contains(where: { $0.operation == .alter }) else { return }
        require(delivered.allSatisfy { $0.id == 0 }, "a message that was never started")
        require(delivered.count <= 1, "one message delivered \(delivered.count) times")
        if sdus == untouched {
            require(delivered == [DeliveredMessage(id: 0, bytes: message)], "not delivered intact")
        }
    }

    // MARK: Oversize

    /// Declarations over the cap, at the standard limits: refused before anything is held.
    static func linkOversize() {
        let cap = LinkConfiguration.standard.maxMessageBytes
        let payload = [UInt8](repeating: 1, count: LinkConfiguration.standard.maxPayloadBytes)
        let fragment = LinkFragment(
            link: linkID, message: 0, index: 0, count: .max, payload: payload[...]
        ).encoded()
        AllocationMeter.requireAtMost(cap, "a fragment declaring 65,535 × 233 bytes") {
            var link = try! DatagramLink(id: linkID)
            let events = link.receive(fragment, now: LinkInstant(milliseconds: 0))
            require(
                events.errors.map(\.kind) == [.messageTooLarge],
                "oversized fragment: \(events.errors)")
            require(link.counters.bufferedBytes == 0, "an oversized fragment was kept")
        }
        let start: [UInt8] =
            [0x10, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 1, count: 665)
        AllocationMeter.requireAtMost(cap, "a start SDU declaring 4 GiB") {
            var reassembler = PacketReassembler()
            do throws(LinkError) {
                _ = try reassembler.receive(start)
                require(false, "a start SDU declaring 4 GiB was taken")
            } catch {
                require(error.kind == .messageTooLarge, "oversized SDU refused with \(error)")
            }
        }
    }
}
