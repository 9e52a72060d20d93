/// The receiving half of a link: takes data fragments, delivers each message once, and says
/// when to acknowledge (`AckPacing`).
///
/// Message ids start at 0 on each link and grow by one per message (wrapping). Fragments of
/// the next expected message and of the `maxMessagesInFlight - 1` after it are taken: a
/// sender that gave up on a message moves to the next id, and the receiver follows. Once a
/// message is delivered, every incomplete message before it is dropped (its sender moved
/// past it). Fragments of the message last delivered are answered with its final ack (the
/// sender missed it); older ones are ignored; ids further ahead are refused.
///
/// An in-order fragment that `AckPacing` leaves unanswered is answered `ackDelay` later at the
/// latest (TCP's delayed ack): after a timeout the sender resends only a few fragments, and
/// if one of a pair is lost the other should still draw an ack before the sender's next
/// timeout.
struct WindowedReceiver: Sendable {
    struct Received: Sendable {
        var ack: LinkAck?
        var delivered: DeliveredMessage?
        var errors: [LinkError] = []
        /// Incomplete messages dropped because a later one was delivered.
        var abandoned = 0
        var duplicate = false
        var stale = false
    }

    private struct Delivered: Sendable {
        var id: UInt16
        var count: UInt16
    }

    let link: UInt32
    private(set) var reassembler: Reassembler
    /// The next message id expected.
    private(set) var expected: UInt16 = 0
    private var lastDelivered: Delivered?
    private var pacing = AckPacing()
    /// An in-order fragment not yet answered: the ack it is owed and since when.
    private var heldAck: (ack: LinkAck, since: LinkInstant)?

    /// Well under a round trip's floor (`minRetransmissionTimeout`) and above the air time of
    /// the second fragment of a pair (about 25 ms in the BLE lab), so a steady flow never
    /// waits for it.
    static let ackDelay: Duration = .milliseconds(50)

    init(link: UInt32, configuration: LinkConfiguration) {
        self.link = link
        reassembler = Reassembler(configuration: configuration)
    }

    private var configuration: LinkConfiguration { reassembler.configuration }

    mutating func receive(_ fragment: LinkFragment, now: LinkInstant) -> Received {
        let received = take(fragment, now: now)
        if received.ack != nil || received.delivered != nil {
            heldAck = nil
        }
        return received
    }

    /// When the held ack is due, if one is held.
    var nextAckDeadline: LinkInstant? { heldAck.map { $0.since + Self.ackDelay } }

    /// The held ack, once `ackDelay` has passed.
    mutating func dueAck(now: LinkInstant) -> LinkAck? {
        guard let held = heldAck, held.since + Self.ackDelay <= now else { return nil }
        heldAck = nil
        pacing.acknowledgedLate()
        return held.ack
    }

    private mutating func take(_ fragment: LinkFragment, now: LinkInstant) -> Received {
        var received = Received()
        let id = fragment.message
        if let last = lastDelivered, last.id == id {
            guard fragment.count == last.count else {
                received.errors.append(.conflictingFragment(message: id, index: fragment.index))
                return received
            }
            received.duplicate = true
            if pacing.duplicate(message: id, index: fragment.index, count: last.count) {
                received.ack = ack(id, next: last.count)
            }
            return received
        }
        let ahead = id &- expected
        guard ahead < 0x8000 else {
            received.stale = true
            return received
        }
        guard Int(ahead) < configuration.maxMessagesInFlight else {
            received.errors.append(.messageOutOfWindow(message: id, expected: expected))
            return received
        }
        let accepted: Reassembler.Accepted
        do {
            accepted = try reassembler.accept(fragment, now: now)
        } catch {
            received.errors.append(error)
            return received
        }
        received.errors += accepted.dropped
        let interval = configuration.ackInterval
        switch accepted.progress {
        case .complete(let bytes):
            received.delivered = DeliveredMessage(id: id, bytes: bytes)
            received.ack = ack(id, next: fragment.count)
            received.abandoned = reassembler.discard { id &- $0 < 0x8000 }.count
            expected = id &+ 1
            lastDelivered = Delivered(id: id, count: fragment.count)
            pacing.completed()
        case .stored(let next, let advancedBy):
            if pacing.stored(message: id, next: next, advancedBy: advancedBy, interval: interval) {
                received.ack = ack(id, next: next)
            } else if advancedBy > 0 {
                heldAck = (ack(id, next: next), heldAck?.since ?? now)
            }
        case .duplicate(let next):
            received.duplicate = true
            if pacing.duplicate(message: id, index: fragment.index, count: fragment.count) {
                received.ack = ack(id, next: next)
            }
        case .beyondWindow(let next):
            if pacing.gap(message: id, next: next) { received.ack = ack(id, next: next) }
        case .dropped: break
        }
        return received
    }

    mutating func expire(now: LinkInstant) -> [LinkError] { reassembler.expire(now: now) }

    private func ack(_ message: UInt16, next: UInt16) -> LinkAck {
        LinkAck(link: link, message: message, next: next)
    }
}

/// A message reassembled whole, with the id it travelled under.
public struct DeliveredMessage: Hashable, Sendable {
    public var id: UInt16
    public var bytes: [UInt8]

    public init(id: UInt16, bytes: [UInt8]) {
        self.id = id
        self.bytes = bytes
    }
}
