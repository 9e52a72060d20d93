import Foundation
import NodeKit
import Tender

/// Payments as they land, for every subscriber (the event stream, the point-of-sale page).
/// The wallets are read every `interval`: a payment taken by this process (Bluetooth) or by
/// another (`tender receive` beside the node) is announced once, whichever took it.
public actor PaymentFeed {
    private var subscribers: [UUID: AsyncStream<IncomingPaymentView>.Continuation] = [:]
    private var announced: Set<Bytes32>?

    public init() {}

    /// A stream of the payments that land from now on; it ends when the caller stops reading.
    func subscribe() -> AsyncStream<IncomingPaymentView> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<IncomingPaymentView>.makeStream(
            bufferingPolicy: .bufferingNewest(256))
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        return stream
    }

    private func unsubscribe(_ id: UUID) { subscribers[id] = nil }

    /// Open event streams (and other readers) right now.
    public var subscriberCount: Int { subscribers.count }

    /// Reads the wallets once: the first reading only learns what is there, later ones
    /// announce what is new. Returns how many were announced.
    @discardableResult
    public func poll(_ wallets: [Wallet]) throws(NodeError) -> Int {
        var landed: [IncomingPaymentView] = []
        var ids: Set<Bytes32> = []
        for wallet in wallets {
            for record in try wallet.incomingPayments() {
                ids.insert(record.requestID)
                if let announced, !announced.contains(record.requestID) {
                    landed.append(IncomingPaymentView(record, domain: wallet.domain))
                }
            }
        }
        announced = ids
        for payment in landed.sorted(by: { $0.receivedAt < $1.receivedAt }) {
            for subscriber in subscribers.values { subscriber.yield(payment) }
        }
        return landed.count
    }

    /// Polls until cancelled; a failed reading is tried again at the next tick.
    public func run(
        wallets: @Sendable () throws(NodeError) -> [Wallet], every interval: Duration
    ) async {
        while !Task.isCancelled {
            _ = try? poll(wallets())
            try? await Task.sleep(for: interval)
        }
        for subscriber in subscribers.values { subscriber.finish() }
    }
}
