/// When the receiver acknowledges, for the message it last heard from. Every ack answers a
/// fragment, so a peer can never draw more datagrams out than it puts in:
/// - the end of a message, always (also for a duplicate of the message last delivered);
/// - every `ackInterval` (2) fragments taken in order, and at once when a fragment fills a
///   gap;
/// - a gap (a fragment past the first missing one): three times per first-missing index.
///   The first ack may read as progress to the sender; the next two are duplicate acks, on
///   which the sender resends the missing fragment without waiting for its timer;
/// - a duplicate that starts a run (a resend after a timeout begins with the sender's first
///   unacknowledged fragment), and the duplicate of a message's last fragment. Acking every
///   duplicate was tried: after a timeout on late (not lost) fragments its acks read as
///   duplicate acks and drew further resends (twice as many behind `BottleneckTests`' stalls).
struct AckPacing: Sendable {
    private var message: UInt16?
    private var inOrderSinceAck = 0
    private var gapAckedNext: UInt16?
    private var gapAcks = 0
    private var lastDuplicate: UInt16?

    private mutating func focus(on id: UInt16) {
        guard message != id else { return }
        self = AckPacing()
        message = id
    }

    /// Whether a fragment that moved `next` by `advancedBy` (0: it lies past a gap) calls
    /// for an ack.
    mutating func stored(
        message id: UInt16, next: UInt16, advancedBy: Int, interval: Int
    ) -> Bool {
        focus(on: id)
        switch advancedBy {
        case 0: return gap(at: next)
        case 1:
            inOrderSinceAck += 1
            guard inOrderSinceAck >= interval else { return false }
            inOrderSinceAck = 0
            return true
        default:
            inOrderSinceAck = 0
            return true
        }
    }

    /// Whether a fragment past the window (or past a gap, not kept) calls for an ack.
    mutating func gap(message id: UInt16, next: UInt16) -> Bool {
        focus(on: id)
        return gap(at: next)
    }

    private mutating func gap(at next: UInt16) -> Bool {
        if gapAckedNext != next {
            gapAckedNext = next
            gapAcks = 0
        }
        guard gapAcks < 3 else { return false }
        gapAcks += 1
        return true
    }

    /// Whether a duplicate of fragment `index` (of `count`) calls for an ack.
    mutating func duplicate(message id: UInt16, index: UInt16, count: UInt16) -> Bool {
        focus(on: id)
        defer { lastDuplicate = index }
        let startsRun = lastDuplicate.map { index != $0 &+ 1 } ?? true
        return startsRun || index == count &- 1
    }

    /// The receiver's ack timer answered the fragments taken in order so far.
    mutating func acknowledgedLate() { inOrderSinceAck = 0 }

    /// A message completed: whatever comes next starts afresh.
    mutating func completed() { self = AckPacing() }
}
