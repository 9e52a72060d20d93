/// Sizes, window and timers of a link. Both ends should use the same values; every bound a
/// hostile peer could push on is here, and the defaults are argued in Docs/PROTOCOL.md.
public struct LinkConfiguration: Hashable, Sendable {
    /// Largest datagram sent or accepted, header included: an ATT value (244 in our lab,
    /// the LE data length of 251 less the L2CAP and ATT headers).
    public var maxDatagramBytes: Int
    /// Largest message sent or reassembled; also each link's buffer for all its messages.
    public var maxMessageBytes: Int
    /// Incomplete messages one link may hold; a new one beyond this drops the oldest.
    public var maxMessagesInFlight: Int
    /// Links one peripheral tracks; a new one beyond this evicts the least recently active.
    public var maxLinks: Int
    /// Fragments the sender keeps unacknowledged at most; the receiver holds at most this many
    /// past the first missing one. Within it the sender keeps fewer while the path queues or
    /// loses (`CongestionWindow`).
    public var window: Int
    /// Fragments a link's first message may have unacknowledged before any ack (never more
    /// than `window`); then acks decide. 13: a message of up to 3,029 bytes (a payment's) leaves
    /// in one flight as before pacing. Behind `BottleneckTests`' queue at 5–10 % loss, 8 did
    /// about as well (3 % faster at 10 %) and 16 drew spurious resends.
    public var initialWindow: Int
    /// Retransmission timeout until a round trip is measured; then the measured one (see
    /// `RoundTripEstimator`), never below the minimum. Doubled per timeout up to the maximum.
    public var retransmissionTimeout: Duration
    public var minRetransmissionTimeout: Duration
    public var maxRetransmissionTimeout: Duration
    /// Timeouts in a row before the message fails with `retriesExhausted`.
    public var maxRetries: Int
    /// How long an incomplete message may hear nothing before it is dropped: longer than a
    /// sender's whole retry schedule, so only a sender that stopped loses its message.
    public var messageTimeout: Duration

    public init(
        maxDatagramBytes: Int = 244, maxMessageBytes: Int = 1_114_112,
        maxMessagesInFlight: Int = 4, maxLinks: Int = 8, window: Int = 16,
        initialWindow: Int = 13,
        retransmissionTimeout: Duration = .milliseconds(500),
        minRetransmissionTimeout: Duration = .milliseconds(200),
        maxRetransmissionTimeout: Duration = .seconds(2), maxRetries: Int = 8,
        messageTimeout: Duration = .seconds(30)
    ) {
        self.maxDatagramBytes = maxDatagramBytes
        self.maxMessageBytes = maxMessageBytes
        self.maxMessagesInFlight = maxMessagesInFlight
        self.maxLinks = maxLinks
        self.window = window
        self.initialWindow = initialWindow
        self.retransmissionTimeout = retransmissionTimeout
        self.minRetransmissionTimeout = minRetransmissionTimeout
        self.maxRetransmissionTimeout = maxRetransmissionTimeout
        self.maxRetries = maxRetries
        self.messageTimeout = messageTimeout
    }

    /// 244-byte datagrams, 1 MiB + 64 KiB messages (a 1 MiB envelope, the largest
    /// `Envelope.maxBytes` allows, with room for the session's own framing), 4 messages in
    /// flight, 8 links, a window of 16 (13 before a link's first ack), a timeout of 0.5 s until a
    /// round trip is measured and 0.2 s at least after, 2 s at most, 8 retries (a message fails
    /// 15.5 s after its last progress, 13 s once round trips are short: at 30 % loss each way a
    /// round trip succeeds half the time, and 5 retries failed about one small message in a
    /// hundred in the simulator), 30 s per silent incomplete message.
    public static let standard = LinkConfiguration()

    /// Payload bytes in a full data fragment.
    public var maxPayloadBytes: Int { maxDatagramBytes - LinkFrame.dataHeaderLength }

    /// Acknowledge every this many in-order fragments: 2 (as TCP does), so the sender's timer
    /// restarts and its window moves every two fragments the air carries; 1 for windows of 2
    /// or 3.
    var ackInterval: Int { max(1, min(2, window / 2)) }

    /// Throws `invalidConfiguration` for values the link cannot work with.
    public func validate() throws(LinkError) {
        guard maxDatagramBytes > LinkFrame.dataHeaderLength else {
            throw .invalidConfiguration(
                "a datagram of \(maxDatagramBytes) bytes holds no payload after the \(LinkFrame.dataHeaderLength)-byte header"
            )
        }
        guard maxMessageBytes >= 0, maxMessagesInFlight >= 1, maxLinks >= 1 else {
            throw .invalidConfiguration(
                "message size, messages in flight and links must be positive")
        }
        guard (1...Int(UInt16.max)).contains(window) else {
            throw .invalidConfiguration("window \(window) outside 1...65535")
        }
        guard initialWindow >= 1 else {
            throw .invalidConfiguration("initial window \(initialWindow) below 1")
        }
        guard maxRetries >= 0, minRetransmissionTimeout > .zero,
            retransmissionTimeout >= minRetransmissionTimeout,
            maxRetransmissionTimeout >= retransmissionTimeout, messageTimeout > .zero
        else {
            throw .invalidConfiguration("timeouts must be positive and retries not negative")
        }
    }
}
