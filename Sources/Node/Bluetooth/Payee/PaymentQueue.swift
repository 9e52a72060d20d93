/// The payments payers offered, handed to the node's exchange one at a time: the exchange
/// answers each before it takes the next, and the answer goes to the link the payment came
/// on. Payers are served side by side; their payments wait here in the order they came.
struct PaymentQueue {
    private var pending: [(link: UInt32, payment: [UInt8])] = []
    private var waiting: CheckedContinuation<[UInt8]?, Never>?
    /// The link whose payment the exchange holds now.
    private var current: UInt32?
    private(set) var finished = false

    /// Whether the exchange waits for a payment now.
    var isWaiting: Bool { waiting != nil }

    /// A payer offered `payment` on `link`: handed over at once when the exchange waits.
    mutating func offer(_ payment: [UInt8], on link: UInt32) {
        guard !finished else { return }
        if let waiting {
            self.waiting = nil
            current = link
            waiting.resume(returning: payment)
        } else {
            pending.append((link, payment))
        }
    }

    /// Gives `continuation` the next payment: now, when one waits, else when one comes (nil
    /// once finished).
    mutating func next(_ continuation: CheckedContinuation<[UInt8]?, Never>) {
        if finished { return continuation.resume(returning: nil) }
        guard !pending.isEmpty else {
            waiting = continuation
            return
        }
        let next = pending.removeFirst()
        current = next.link
        continuation.resume(returning: next.payment)
    }

    /// The link the exchange's answer goes to: the payment it took last's, once.
    mutating func answering() -> UInt32? {
        defer { current = nil }
        return current
    }

    /// `link` ended: its payments not yet taken go with it.
    mutating func drop(_ link: UInt32) { pending.removeAll { $0.link == link } }

    /// No more payments: a wait for one ends with nil.
    mutating func finish() {
        finished = true
        pending = []
        waiting?.resume(returning: nil)
        waiting = nil
    }
}
