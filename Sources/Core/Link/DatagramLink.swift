/// One end of a link over an unreliable datagram channel: the same machine on the central
/// (which picks the link id) and on the peripheral (which echoes it). Frames of other links
/// are dropped unread; everything else is driven by calls, with time as a parameter:
///
///     send(message, now)    the first window of fragments to write
///     receive(datagram, now) acks and resends to write, messages delivered, errors
///     tick(now)             resends and timeouts; call it at `nextDeadline`
///
/// No I/O and no clock: the caller writes the datagrams and sleeps until `nextDeadline`.
public struct DatagramLink: Sendable {
    public let id: UInt32
    public let configuration: LinkConfiguration
    private var sender: WindowedSender
    private var receiver: WindowedReceiver
    private var totals = LinkCounters()
    /// Set once either side closed: the link then sends and takes nothing more.
    public private(set) var closedReason: CloseReason?

    public init(id: UInt32, configuration: LinkConfiguration = .standard) throws(LinkError) {
        try configuration.validate()
        self.id = id
        self.configuration = configuration
        sender = WindowedSender(link: id, configuration: configuration)
        receiver = WindowedReceiver(link: id, configuration: configuration)
    }

    /// Totals so far, with what is buffered now.
    public var counters: LinkCounters {
        var counters = totals
        counters.bufferedBytes = receiver.reassembler.bufferedBytes
        counters.messagesInFlight = receiver.reassembler.messagesInFlight
        return counters
    }

    /// The own message not yet acknowledged whole, if any.
    public var messageInFlight: UInt16? { sender.inFlight }

    /// The next message id this side will send.
    public var nextMessageID: UInt16 { sender.nextID }

    /// The earliest time `tick` has something to do; nil when nothing waits.
    public var nextDeadline: LinkInstant? {
        [sender.nextDeadline, receiver.nextAckDeadline, receiver.reassembler.nextDeadline]
            .compactMap { $0 }.min()
    }

    /// Starts sending `message`; returns the datagrams to write now. The message is done when
    /// its id appears in `LinkEvents.acknowledged`, failed on `retriesExhausted`.
    /// - Throws: `senderBusy` while another message is in flight, `messageTooLargeToSend`,
    ///   `linkClosed`.
    public mutating func send(
        _ message: [UInt8], now: LinkInstant
    ) throws(LinkError)
        -> [[UInt8]]
    {
        if let closedReason { throw .linkClosed(closedReason) }
        let datagrams = try sender.send(message, now: now)
        totals.datagramsSent += datagrams.count
        return datagrams
    }

    /// Takes one datagram from the peer.
    public mutating func receive(_ datagram: [UInt8], now: LinkInstant) -> LinkEvents {
        totals.datagramsReceived += 1
        var events = LinkEvents()
        defer { totals.count(events) }
        guard closedReason == nil else { return events }
        guard datagram.count <= configuration.maxDatagramBytes else {
            events.errors.append(
                .datagramTooLarge(length: datagram.count, limit: configuration.maxDatagramBytes))
            return events
        }
        if let link = LinkFrame.peekLink(datagram), link != id {
            totals.foreignFrames += 1
            return events
        }
        let frame: LinkFrame
        do {
            frame = try LinkFrame.decode(datagram)
        } catch {
            events.errors.append(error)
            return events
        }
        switch frame {
        case .data(let fragment): take(receiver.receive(fragment, now: now), into: &events)
        case .ack(let ack): take(sender.receive(ack, now: now), into: &events)
        case .close(let close):
            shutDown(close.reason)
            events.closed = close.reason
        }
        return events
    }

    /// Resends what timed out, fails a message out of retries, sends an ack held too long,
    /// drops silent incomplete messages. Cheap when nothing is due.
    public mutating func tick(now: LinkInstant) -> LinkEvents {
        var events = LinkEvents()
        guard closedReason == nil else { return events }
        take(sender.tick(now: now), into: &events)
        if let ack = receiver.dueAck(now: now) {
            events.datagrams.append(LinkFrame.ack(ack).encoded())
            totals.acksSent += 1
        }
        events.errors += receiver.expire(now: now)
        totals.count(events)
        return events
    }

    /// Closes the link from this side; returns the close frame to write (once or a few
    /// times: the peer may miss it). Drops everything buffered.
    public mutating func close(_ reason: CloseReason) -> [UInt8] {
        if closedReason == nil { shutDown(reason) }
        return LinkFrame.close(LinkClose(link: id, reason: closedReason ?? reason)).encoded()
    }

    private mutating func shutDown(_ reason: CloseReason) {
        closedReason = reason
        sender.abandon()
        receiver = WindowedReceiver(link: id, configuration: configuration)
    }

    private mutating func take(_ received: WindowedReceiver.Received, into events: inout LinkEvents)
    {
        if let ack = received.ack {
            events.datagrams.append(LinkFrame.ack(ack).encoded())
            totals.acksSent += 1
        }
        if let message = received.delivered { events.delivered.append(message) }
        events.errors += received.errors
        totals.abandonedMessages += received.abandoned
        if received.duplicate { totals.duplicateFragments += 1 }
        if received.stale { totals.staleFragments += 1 }
    }

    private mutating func take(_ outcome: WindowedSender.Outcome, into events: inout LinkEvents) {
        events.datagrams += outcome.datagrams
        if let id = outcome.acknowledged { events.acknowledged.append(id) }
        events.errors += outcome.errors
        totals.retransmissions += outcome.retransmissions
        if outcome.timedOut { totals.timeouts += 1 }
    }
}
