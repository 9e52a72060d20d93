/// The sending half of a link: one message at a time, at most `congestion.fragments`
/// unacknowledged (the configured `window` at most, fewer while the path queues or loses:
/// `CongestionWindow`).
///
/// - An ack that moves past the first unacknowledged fragment (`base`) slides the window,
///   restarts the timer, resets the backoff and feeds the congestion window (with a round
///   trip when the fragment it answers was sent once: Karn's rule).
/// - A duplicate ack repeats `base` while later fragments are out: the receiver saw a gap.
///   The second one in a row resends fragment `base` alone, once per index (one is not
///   enough: a datagram the radio repeated draws one), and ends the congestion window's
///   slow start.
/// - After such a resend, an ack that moves `base` but not past what was out at the time
///   points at the next hole: that fragment is resent at once too (as TCP's NewReno does).
/// - When the retransmission timer fires, the congestion window halves (to 4 at least) and
///   sending starts again from `base` within it (the receiver's cumulative ack then skips what
///   it holds), so a timer that fired on fragments still queued in the kernel resends a few,
///   not every fragment out, and they do not queue again behind a whole window. The timeout
///   doubles, up to its maximum. After `maxRetries` timeouts without progress, the next one
///   fails the message with `retriesExhausted`.
/// Message ids start at 0 and grow by one per message, delivered or failed.
struct WindowedSender: Sendable {
    private struct Outgoing: Sendable {
        let id: UInt16
        let bytes: [UInt8]
        let plan: Fragmenter
        /// First fragment not acknowledged.
        var base = 0
        /// Next fragment to send (back to `base` after a timeout).
        var nextToSend = 0
        /// First fragment never sent: those below it that are sent again are resends.
        var neverSent = 0
        var retries = 0
        var timeout: Duration
        var deadline: LinkInstant
        /// Acks in a row that repeated `base`.
        var duplicateAcks = 0
        /// The `base` already resent on duplicate acks.
        var resentBase: Int?
        /// What was out when that resend began: acks short of it point at further holes.
        var recoveryEnd: Int?
        /// When each unacknowledged fragment was sent, while it was sent only once.
        var sentOnce: [Int: LinkInstant] = [:]
    }

    struct Outcome: Sendable {
        var datagrams: [[UInt8]] = []
        var acknowledged: UInt16?
        var errors: [LinkError] = []
        var retransmissions = 0
        var timedOut = false
    }

    let link: UInt32
    let configuration: LinkConfiguration
    private(set) var nextID: UInt16 = 0
    private var outgoing: Outgoing?
    /// Both live as long as the link: every message refines them.
    private(set) var roundTrip: RoundTripEstimator
    private(set) var congestion: CongestionWindow

    init(link: UInt32, configuration: LinkConfiguration) {
        self.link = link
        self.configuration = configuration
        roundTrip = RoundTripEstimator(configuration: configuration)
        congestion = CongestionWindow(configuration: configuration)
    }

    /// The message still unacknowledged, if any.
    var inFlight: UInt16? { outgoing?.id }

    var nextDeadline: LinkInstant? { outgoing?.deadline }

    mutating func send(_ message: [UInt8], now: LinkInstant) throws(LinkError) -> [[UInt8]] {
        if let outgoing { throw .senderBusy(inFlight: outgoing.id) }
        let plan = try Fragmenter(messageBytes: message.count, configuration: configuration)
        let timeout = roundTrip.timeout
        var started = Outgoing(
            id: nextID, bytes: message, plan: plan, timeout: timeout, deadline: now + timeout)
        nextID &+= 1
        var outcome = Outcome()
        fill(&started, now: now, into: &outcome)
        let datagrams = outcome.datagrams
        outgoing = started
        return datagrams
    }

    mutating func receive(_ ack: LinkAck, now: LinkInstant) -> Outcome {
        var outcome = Outcome()
        guard var current = outgoing, ack.message == current.id else {
            // Behind the next id: a late ack of a message already finished. Otherwise never sent.
            if nextID &- ack.message > 0x8000 || nextID == ack.message {
                outcome.errors.append(.ackForUnsentMessage(message: ack.message))
            }
            return outcome
        }
        let next = Int(ack.next)
        guard next <= current.plan.count else {
            outcome.errors.append(
                .ackOutOfRange(
                    message: ack.message, next: ack.next, count: UInt16(current.plan.count)))
            return outcome
        }
        if next > current.base {
            let sample = current.sentOnce[next - 1].map { now - $0 }
            if let sample { roundTrip.record(sample) }
            congestion.acknowledged(next - current.base, roundTrip: sample)
            current.sentOnce = current.sentOnce.filter { $0.key >= next }
            current.base = next
            current.retries = 0
            current.timeout = roundTrip.timeout
            current.deadline = now + current.timeout
            current.duplicateAcks = 0
            if next == current.plan.count {
                outgoing = nil
                outcome.acknowledged = current.id
                return outcome
            }
            if let end = current.recoveryEnd, next < end {
                resendBase(&current, into: &outcome)
            } else {
                current.recoveryEnd = nil
            }
            current.nextToSend = max(current.nextToSend, next)
            fill(&current, now: now, into: &outcome)
        } else if next == current.base, current.base < current.neverSent {
            current.duplicateAcks += 1
            if current.duplicateAcks >= 2, current.resentBase != current.base {
                if current.recoveryEnd == nil { congestion.lost() }
                current.recoveryEnd = current.neverSent
                resendBase(&current, into: &outcome)
                current.deadline = now + current.timeout
            }
        }
        outgoing = current
        return outcome
    }

    /// Resends on a timeout, or fails the message after `maxRetries` of them.
    mutating func tick(now: LinkInstant) -> Outcome {
        var outcome = Outcome()
        guard var current = outgoing, current.deadline <= now else { return outcome }
        outcome.timedOut = true
        current.retries += 1
        guard current.retries <= configuration.maxRetries else {
            outgoing = nil
            outcome.errors.append(.retriesExhausted(message: current.id))
            return outcome
        }
        current.timeout = min(current.timeout * 2, configuration.maxRetransmissionTimeout)
        current.deadline = now + current.timeout
        current.duplicateAcks = 0
        current.resentBase = nil
        current.recoveryEnd = nil
        current.sentOnce = [:]
        congestion.timedOut()
        current.nextToSend = current.base
        fill(&current, now: now, into: &outcome)
        outgoing = current
        return outcome
    }

    /// Gives up the message in flight (the link closed).
    mutating func abandon() { outgoing = nil }

    /// Resends the first unacknowledged fragment alone, once per index.
    private func resendBase(_ message: inout Outgoing, into outcome: inout Outcome) {
        guard message.resentBase != message.base else { return }
        message.resentBase = message.base
        message.sentOnce[message.base] = nil
        outcome.datagrams.append(datagram(message.base, of: message))
        outcome.retransmissions += 1
    }

    /// Sends fragments until the congestion window's worth are unacknowledged or none is
    /// left; only fragments sent for the first time are timed.
    private func fill(_ message: inout Outgoing, now: LinkInstant, into outcome: inout Outcome) {
        let end = min(message.base + congestion.fragments, message.plan.count)
        guard message.nextToSend < end else { return }
        for index in message.nextToSend..<end {
            outcome.datagrams.append(datagram(index, of: message))
            if index < message.neverSent {
                outcome.retransmissions += 1
            } else {
                message.sentOnce[index] = now
            }
        }
        message.nextToSend = end
        message.neverSent = max(message.neverSent, end)
    }

    private func datagram(_ index: Int, of message: Outgoing) -> [UInt8] {
        message.plan.datagram(index, of: message.bytes, link: link, id: message.id)
    }
}
