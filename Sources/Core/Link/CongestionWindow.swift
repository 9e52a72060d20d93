/// How many fragments the sender may have unacknowledged now: at most the configured
/// `window`, fewer while the path holds a queue.
///
/// A BlueZ socket takes datagrams at once while the air drains them slowly, so writing a
/// whole window only builds a queue in the kernel, and a queue lengthens every round trip
/// until timers fire on fragments that are queued, not lost. The window follows the acks
/// (TCP Vegas' rule): the shortest round trip seen is the path without a queue, so
/// `size × (1 − shortest / measured)` fragments sit in queues. Above `queueHigh` the window
/// shrinks by one per round trip; below `queueLow` it grows by one per round trip, or by one
/// per fragment acknowledged (slow start) until the first queue, loss or timeout.
///
/// A loss found by duplicate acks ends slow start but does not shrink the window: the queue
/// is kept short by delay, so a loss here is the radio's, not a full buffer's, and halving on
/// it made 100 kB at 10 % random loss take 12 s instead of 8 s in the simulator. A timeout
/// halves the window (never below `afterTimeout`) and slow start takes it back to where it
/// was unless a queue shows first.
struct CongestionWindow: Sendable {
    /// Fragments queued beyond the path's own round trip that call for a smaller window.
    static let queueHigh = 3.0
    /// Fewer queued than this and the window may grow.
    static let queueLow = 1.5
    /// The least a timeout leaves: enough fragments that, at heavy loss, one of them still
    /// draws an ack or the duplicate acks that resend the first.
    static let afterTimeout = 4

    let limit: Int
    /// The receiver's ack interval (`LinkConfiguration.ackInterval`): a smaller window would
    /// wait for an ack the receiver sends only after its ack delay.
    let floor: Int
    private var size: Double
    private var slowStartBelow: Double
    /// The shortest round trip measured, in milliseconds: the path without a queue.
    private var shortest: Double?

    init(configuration: LinkConfiguration) {
        limit = configuration.window
        floor = min(configuration.ackInterval, configuration.window)
        size = Double(max(floor, min(configuration.initialWindow, limit)))
        slowStartBelow = Double(limit)
    }

    /// Fragments that may be unacknowledged.
    var fragments: Int { max(floor, min(limit, Int(size))) }

    /// `count` fragments were acknowledged; `roundTrip` measured on one sent once, if any.
    mutating func acknowledged(_ count: Int, roundTrip: Duration?) {
        let acked = Double(count)
        if let roundTrip {
            let measured = Double(max(1, roundTrip.wholeMilliseconds))
            let path = min(shortest ?? measured, measured)
            shortest = path
            let queued = size * (1 - path / measured)
            if queued > Self.queueHigh {
                size = max(Double(floor), size - acked / size)
                slowStartBelow = size
                return
            }
            if queued > Self.queueLow {
                slowStartBelow = min(slowStartBelow, size)
                return
            }
        }
        size += size < slowStartBelow ? acked : acked / size
        size = min(size, Double(limit))
    }

    /// Duplicate acks said a fragment was lost.
    mutating func lost() { slowStartBelow = min(slowStartBelow, size) }

    /// The retransmission timer fired.
    mutating func timedOut() {
        slowStartBelow = size
        size = max(Double(min(Self.afterTimeout, limit)), size / 2)
    }
}
