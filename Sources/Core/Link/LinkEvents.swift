/// What one call into a link produced: datagrams to write (in order), messages delivered,
/// own messages the peer acknowledged whole, errors, and the peer's close.
public struct LinkEvents: Hashable, Sendable {
    public var datagrams: [[UInt8]] = []
    public var delivered: [DeliveredMessage] = []
    public var acknowledged: [UInt16] = []
    public var errors: [LinkError] = []
    public var closed: CloseReason?

    public init() {}

    public var isEmpty: Bool { self == LinkEvents() }

    /// Adds what a later call produced.
    public mutating func append(_ other: LinkEvents) {
        datagrams += other.datagrams
        delivered += other.delivered
        acknowledged += other.acknowledged
        errors += other.errors
        closed = closed ?? other.closed
    }
}

/// Running totals of one link (or a table of links), so a test or an operator can check the
/// bounds: `bufferedBytes ≤ maxMessageBytes` and `messagesInFlight ≤ maxMessagesInFlight`
/// per link, and what the peer got wrong, by kind.
public struct LinkCounters: Hashable, Sendable {
    /// Payload bytes held for incomplete messages (now).
    public var bufferedBytes = 0
    /// Incomplete messages held (now).
    public var messagesInFlight = 0
    public var datagramsReceived = 0
    /// Every datagram written: data, acks, resends.
    public var datagramsSent = 0
    public var acksSent = 0
    /// Frames of other links, dropped unread.
    public var foreignFrames = 0
    public var duplicateFragments = 0
    /// Fragments of messages older than the one last delivered.
    public var staleFragments = 0
    /// Incomplete messages dropped because a later one was delivered.
    public var abandonedMessages = 0
    /// Fragments sent again (on duplicate acks or timeouts).
    public var retransmissions = 0
    /// Retransmission timers that fired.
    public var timeouts = 0
    public var messagesDelivered = 0
    public var bytesDelivered = 0
    public var errors: [LinkError.Kind: Int] = [:]

    public init() {}

    public func errors(_ kind: LinkError.Kind) -> Int { errors[kind, default: 0] }
    public var totalErrors: Int { errors.values.reduce(0, +) }

    mutating func count(_ events: LinkEvents) {
        datagramsSent += events.datagrams.count
        messagesDelivered += events.delivered.count
        bytesDelivered += events.delivered.reduce(0) { $0 + $1.bytes.count }
        for error in events.errors { errors[error.kind, default: 0] += 1 }
    }

    /// Every count above, for summing.
    private static var counts: [WritableKeyPath<LinkCounters, Int>] {
        [
            \.bufferedBytes, \.messagesInFlight, \.datagramsReceived, \.datagramsSent, \.acksSent,
            \.foreignFrames, \.duplicateFragments, \.staleFragments, \.abandonedMessages,
            \.retransmissions, \.timeouts, \.messagesDelivered, \.bytesDelivered,
        ]
    }

    /// Adds another link's counters (a table's totals).
    mutating func add(_ other: LinkCounters) {
        for count in Self.counts { self[keyPath: count] += other[keyPath: count] }
        errors.merge(other.errors, uniquingKeysWith: +)
    }
}
