/// Reassembles the messages of one link from data fragments, within bounds a hostile peer
/// cannot move: at most `maxMessagesInFlight` incomplete messages, at most `maxMessageBytes`
/// buffered for all of them together, at most `window` fragments kept past a message's first
/// gap, and each silent message dropped after `messageTimeout`.
///
/// When a bound is hit the *oldest* incomplete message goes (the one started first): message
/// ids only grow, so the oldest is the one a sender most likely gave up on, while refusing
/// the newest would wedge a link whose sender moved on.
public struct Reassembler: Sendable {
    public enum Progress: Hashable, Sendable {
        /// Kept. `next` is the first missing index; `advancedBy` how far it moved (0 when the
        /// fragment lies past a gap).
        case stored(next: UInt16, advancedBy: Int)
        /// Already held, byte for byte: ignored.
        case duplicate(next: UInt16)
        /// Past the window after the first missing fragment: not kept.
        case beyondWindow(next: UInt16)
        /// The fragment completed the message, which no longer counts as in flight.
        case complete([UInt8])
        /// The fragment's own message was dropped to keep the buffer within its bound (it was
        /// the oldest; `dropped` says so).
        case dropped
    }

    public struct Accepted: Hashable, Sendable {
        public var progress: Progress
        /// Other messages dropped to make room (`tooManyMessagesInFlight`, `bufferFull`).
        public var dropped: [LinkError]
    }

    public let configuration: LinkConfiguration
    /// Oldest first.
    private var messages: [PartialMessage] = []
    /// Payload bytes held for every incomplete message: at most `maxMessageBytes`.
    public private(set) var bufferedBytes = 0

    public init(configuration: LinkConfiguration = .standard) {
        self.configuration = configuration
    }

    public var messagesInFlight: Int { messages.count }
    public var messageIDs: [UInt16] { messages.map(\.id) }

    /// The first missing fragment of an incomplete message.
    public func next(of message: UInt16) -> UInt16? {
        messages.first { $0.id == message }.map { UInt16($0.next) }
    }

    /// Takes one fragment. A conflicting or oversized fragment throws and discards its
    /// message; a fragment of a new message may drop older ones (listed in `dropped`).
    public mutating func accept(
        _ fragment: LinkFragment, now: LinkInstant
    ) throws(LinkError)
        -> Accepted
    {
        guard let position = messages.firstIndex(where: { $0.id == fragment.message }) else {
            return try acceptFirst(fragment, now: now)
        }
        // In place: a copy of the message would copy its buffer on every fragment.
        let before = messages[position].bufferedBytes
        let placement: PartialMessage.Placement
        do {
            placement = try messages[position].accept(
                fragment, window: configuration.window, cap: configuration.maxMessageBytes)
        } catch {
            remove(at: position)
            throw error
        }
        messages[position].lastHeard = now
        bufferedBytes += messages[position].bufferedBytes - before
        if messages[position].isComplete {
            let message = messages[position]
            remove(at: position)
            return Accepted(progress: .complete(message.assembled), dropped: [])
        }
        return makeRoom(keeping: position, placement)
    }

    /// The first fragment of a message not held: a message of one fragment is delivered at
    /// once; otherwise it takes a slot, dropping the oldest message when all are taken.
    private mutating func acceptFirst(
        _ fragment: LinkFragment, now: LinkInstant
    )
        throws(LinkError) -> Accepted
    {
        var message = PartialMessage(id: fragment.message, count: fragment.count, now: now)
        let placement = try message.accept(
            fragment, window: configuration.window, cap: configuration.maxMessageBytes)
        if message.isComplete {
            return Accepted(progress: .complete(message.assembled), dropped: [])
        }
        if placement == .beyondWindow {
            // Nothing kept, so no slot taken: a stray fragment cannot push a message out.
            return Accepted(progress: .beyondWindow(next: 0), dropped: [])
        }
        var dropped: [LinkError] = []
        let limit = configuration.maxMessagesInFlight
        if messages.count >= limit {
            dropped.append(.tooManyMessagesInFlight(dropped: messages[0].id, limit: limit))
            remove(at: 0)
        }
        messages.append(message)
        bufferedBytes += message.bufferedBytes
        var accepted = makeRoom(keeping: messages.count - 1, placement)
        accepted.dropped = dropped + accepted.dropped
        return accepted
    }

    /// Drops the oldest messages while more than `maxMessageBytes` is buffered; the message
    /// at `position` goes too when it becomes the oldest (progress `.dropped`).
    private mutating func makeRoom(
        keeping position: Int, _ placement: PartialMessage.Placement
    )
        -> Accepted
    {
        let cap = configuration.maxMessageBytes
        var position = position
        var dropped: [LinkError] = []
        while bufferedBytes > cap {
            dropped.append(.bufferFull(dropped: messages[0].id, limit: cap))
            remove(at: 0)
            guard position > 0 else { return Accepted(progress: .dropped, dropped: dropped) }
            position -= 1
        }
        let next = UInt16(messages[position].next)
        let progress: Progress =
            switch placement {
            case .stored(let advancedBy): .stored(next: next, advancedBy: advancedBy)
            case .duplicate: .duplicate(next: next)
            case .beyondWindow: .beyondWindow(next: next)
            }
        return Accepted(progress: progress, dropped: dropped)
    }

    /// Drops every incomplete message silent for `messageTimeout` by `now`.
    public mutating func expire(now: LinkInstant) -> [LinkError] {
        var expired: [LinkError] = []
        while let position = messages.firstIndex(where: { deadline(of: $0) <= now }) {
            expired.append(.messageTimedOut(message: messages[position].id))
            remove(at: position)
        }
        return expired
    }

    /// When the next incomplete message times out.
    public var nextDeadline: LinkInstant? {
        messages.map(deadline(of:)).min()
    }

    /// Drops the incomplete messages `shouldDrop` picks; returns their ids.
    @discardableResult
    public mutating func discard(where shouldDrop: (UInt16) -> Bool) -> [UInt16] {
        let ids = messages.map(\.id).filter(shouldDrop)
        for id in ids {
            if let position = messages.firstIndex(where: { $0.id == id }) { remove(at: position) }
        }
        return ids
    }

    private func deadline(of message: PartialMessage) -> LinkInstant {
        message.lastHeard + configuration.messageTimeout
    }

    private mutating func remove(at position: Int) {
        bufferedBytes -= messages[position].bufferedBytes
        messages.remove(at: position)
    }
}
