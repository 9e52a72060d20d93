/// The links one peripheral serves. A BlueZ peripheral's notifications reach every subscribed
/// central and its characteristic takes writes from all of them, so links are told apart by
/// the id each central picked. A data frame of message 0 (or one of the few after it, as a
/// fresh link takes) with an unknown id opens a link; other frames of unknown links are
/// dropped. At most `maxLinks` are held: opening one more evicts the least recently active.
///
/// The id is a label, not a credential: a central that guesses another's id can disturb that
/// link. The session above authenticates its peer; the I/O side may also bind an id to the
/// device that first wrote it.
public struct LinkTable: Sendable {
    /// What one datagram did: the link it belonged to (nil when none), its events, and the
    /// link evicted to make room for it.
    public struct Received: Hashable, Sendable {
        public var link: UInt32?
        public var events: LinkEvents
        public var evicted: UInt32?
    }

    private struct Entry: Sendable {
        var link: DatagramLink
        var lastActive: UInt64
    }

    public let configuration: LinkConfiguration
    private var entries: [UInt32: Entry] = [:]
    private var activity: UInt64 = 0
    /// Frames no link took, and the totals of links that are gone.
    private var unattributed = LinkCounters()
    public private(set) var evictions = 0

    public init(configuration: LinkConfiguration = .standard) throws(LinkError) {
        try configuration.validate()
        self.configuration = configuration
    }

    public var linkIDs: [UInt32] { entries.keys.sorted() }
    public var count: Int { entries.count }
    public func link(_ id: UInt32) -> DatagramLink? { entries[id]?.link }

    /// Totals over every link held or gone, and what is buffered now over those held.
    public var counters: LinkCounters {
        entries.values.reduce(into: unattributed) { $0.add($1.link.counters) }
    }

    public var nextDeadline: LinkInstant? {
        entries.values.compactMap(\.link.nextDeadline).min()
    }

    public mutating func receive(_ datagram: [UInt8], now: LinkInstant) -> Received {
        var received = Received(link: nil, events: LinkEvents(), evicted: nil)
        guard datagram.count <= configuration.maxDatagramBytes else {
            refuse(
                .datagramTooLarge(length: datagram.count, limit: configuration.maxDatagramBytes),
                &received)
            return received
        }
        if let id = LinkFrame.peekLink(datagram), entries[id] != nil {
            received.link = id
            received.events = update(id) { $0.receive(datagram, now: now) }
            return received
        }
        let frame: LinkFrame
        do {
            frame = try LinkFrame.decode(datagram)
        } catch {
            refuse(error, &received)
            return received
        }
        guard case .data(let fragment) = frame,
            Int(fragment.message) < configuration.maxMessagesInFlight
        else {
            unattributed.datagramsReceived += 1
            unattributed.foreignFrames += 1
            return received
        }
        if entries.count >= configuration.maxLinks {
            received.evicted = evictLeastRecentlyActive()
        }
        // The configuration was validated above, so a link can always be made.
        guard let link = try? DatagramLink(id: fragment.link, configuration: configuration) else {
            return received
        }
        entries[fragment.link] = Entry(link: link, lastActive: activity)
        received.link = fragment.link
        received.events = update(fragment.link) { $0.receive(datagram, now: now) }
        return received
    }

    /// Sends `message` on a link the table holds.
    public mutating func send(
        _ message: [UInt8], on id: UInt32, now: LinkInstant
    )
        throws(LinkError) -> [[UInt8]]
    {
        guard var entry = entries[id] else { throw .unknownLink(id) }
        let datagrams = try entry.link.send(message, now: now)
        activity += 1
        entry.lastActive = activity
        entries[id] = entry
        return datagrams
    }

    /// Ticks every link; returns the links that had something to say.
    public mutating func tick(now: LinkInstant) -> [Received] {
        var results: [Received] = []
        for id in linkIDs {
            guard var entry = entries[id] else { continue }
            let events = entry.link.tick(now: now)
            entries[id] = entry
            if !events.isEmpty { results.append(Received(link: id, events: events, evicted: nil)) }
        }
        return results
    }

    /// Closes a link from this side and forgets it; returns the close frame to write.
    public mutating func close(_ id: UInt32, reason: CloseReason) -> [UInt8]? {
        guard var entry = entries.removeValue(forKey: id) else { return nil }
        let frame = entry.link.close(reason)
        retire(entry.link)
        return frame
    }

    /// Runs `body` on a held link, marks it active, and forgets it once closed.
    private mutating func update(
        _ id: UInt32, _ body: (inout DatagramLink) -> LinkEvents
    )
        -> LinkEvents
    {
        guard var entry = entries[id] else { return LinkEvents() }
        let events = body(&entry.link)
        activity += 1
        entry.lastActive = activity
        if entry.link.closedReason != nil {
            entries[id] = nil
            retire(entry.link)
        } else {
            entries[id] = entry
        }
        return events
    }

    private mutating func evictLeastRecentlyActive() -> UInt32? {
        guard let (id, entry) = entries.min(by: { $0.value.lastActive < $1.value.lastActive })
        else { return nil }
        entries[id] = nil
        evictions += 1
        retire(entry.link)
        return id
    }

    /// Keeps a departed link's totals (nothing of it stays buffered).
    private mutating func retire(_ link: DatagramLink) {
        var totals = link.counters
        totals.bufferedBytes = 0
        totals.messagesInFlight = 0
        unattributed.add(totals)
    }

    private mutating func refuse(_ error: LinkError, _ received: inout Received) {
        received.events.errors.append(error)
        unattributed.datagramsReceived += 1
        unattributed.count(received.events)
    }
}
