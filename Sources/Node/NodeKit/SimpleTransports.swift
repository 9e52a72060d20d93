/// A payment already in hand (read from a file, scanned from codes): one delivery, whose
/// receipt goes to `reply` (written to a file, shown as a code).
public actor PaymentInHand: PaymentSource {
    private var payment: [UInt8]?
    private let replying: @Sendable ([UInt8]) async throws(NodeError) -> Void

    public init(
        _ payment: [UInt8], reply: @escaping @Sendable ([UInt8]) async throws(NodeError) -> Void
    ) {
        self.payment = payment
        self.replying = reply
    }

    public func nextPayment() async throws(NodeError) -> [UInt8]? {
        defer { payment = nil }
        return payment
    }

    public func reply(_ receipt: [UInt8]) async throws(NodeError) { try await replying(receipt) }

    public func finish() async {}
}

/// A payment written to a file. The write is atomic: when it fails nothing is at the path,
/// so the payment is given back; a device or pipe written in part may have sent something.
public struct FileTransport: PaymentTransport {
    public let path: String
    let write: @Sendable ([UInt8], String) throws(TransportFailure) -> Void
    let check: @Sendable (String) throws(NodeError) -> Void

    /// `check` refuses, before anything is handed over, a path `write` cannot write; `write`
    /// writes atomically and says whether a failure may have left something behind.
    public init(
        path: String, check: @escaping @Sendable (String) throws(NodeError) -> Void,
        write: @escaping @Sendable ([UInt8], String) throws(TransportFailure) -> Void
    ) {
        self.path = path
        self.check = check
        self.write = write
    }

    public func prepare(_ envelope: [UInt8]) async throws(NodeError) { try check(path) }
    public func send(_ envelope: [UInt8]) async throws(TransportFailure) {
        try write(envelope, path)
    }
    public func nextReceipt() async throws(NodeError) -> [UInt8]? { nil }
    public func finish() async {}
}

/// Two media at once (a file and a loop of codes): prepared, then sent, in order; receipts
/// come from the second (the first one's media bring none back).
public struct TransportPair<First: PaymentTransport, Second: PaymentTransport>: PaymentTransport {
    public let first: First
    public let second: Second

    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    public func prepare(_ envelope: [UInt8]) async throws(NodeError) {
        try await first.prepare(envelope)
        try await second.prepare(envelope)
    }

    public func send(_ envelope: [UInt8]) async throws(TransportFailure) {
        try await first.send(envelope)
        do { try await second.send(envelope) } catch {
            // The first already went out: whatever the second says, something may have left.
            switch error {
            case .nothingSent(let cause), .mayHaveSent(let cause): throw .mayHaveSent(cause)
            }
        }
    }

    public func nextReceipt() async throws(NodeError) -> [UInt8]? {
        try await second.nextReceipt()
    }

    public func finish() async {
        await first.finish()
        await second.finish()
    }
}
