import CashuStore
import Foundation
import NodeKit
import Synchronization
import Tender

/// What the event stream announces.
enum FeedEvent: Sendable {
    /// A payment landed in a wallet.
    case payment(IncomingPaymentView)
    /// A payer offered a payment for this request (over Bluetooth); it is being checked.
    case paying(requestID: String)
    /// A Cashu token was taken (by the camera, the API, or `receive` beside the node).
    case cashu(CashuPaymentView)
}

/// Payments as they land, for every subscriber (the event stream, the point-of-sale page).
/// The wallets are read every `interval`: a payment taken by this process (Bluetooth) or by
/// another (`tender receive` beside the node) is announced once, whichever took it.
public actor PaymentFeed {
    /// Behind a lock of its own, so a stream that ends takes itself out at once (its
    /// termination handler cannot wait for the actor).
    private let subscribers = Subscribers()
    /// The last payment row read in each wallet; the first reading only sets them.
    private var rows: [Domain: Int64] = [:]
    private var primed = false
    /// How a wallet's amounts read, for each payment's `display` (never fails: a payment is
    /// announced in base units rather than not at all).
    private let denominations: @Sendable (Wallet) -> Denominations
    /// The Cashu wallet's store, read the same way (nil: the node has none).
    private let cashu: CashuDatabase?
    /// The last Cashu payment read; nil until the first reading.
    private var cashuRow: Int64?

    public init(
        denominations: @escaping @Sendable (Wallet) -> Denominations = { _ in Denominations() },
        cashu: CashuDatabase? = nil
    ) {
        self.denominations = denominations
        self.cashu = cashu
    }

    /// A stream of the payments that land from now on; it ends when the caller stops reading.
    /// Nil when `limit` streams are open already.
    func subscribe(limit: Int = .max) -> AsyncStream<FeedEvent>? {
        let id = UUID()
        let (stream, continuation) = AsyncStream<FeedEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(256))
        let added = subscribers.streams.withLock { streams in
            guard streams.count < limit else { return false }
            streams[id] = continuation
            return true
        }
        guard added else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [subscribers] _ in
            _ = subscribers.streams.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Open event streams (and other readers) right now.
    public nonisolated var subscriberCount: Int { subscribers.streams.withLock { $0.count } }

    private func announce(_ event: FeedEvent) {
        for subscriber in subscribers.current { subscriber.yield(event) }
    }

    /// Reads what landed in the wallets since the last reading: the first reading only learns
    /// where each wallet stands; a wallet that appears later (paid in a new domain) is read
    /// from its start. Returns how many were announced.
    @discardableResult
    public func poll(_ wallets: [Wallet]) throws(NodeError) -> Int {
        var landed: [IncomingPaymentView] = []
        for wallet in wallets {
            if !primed && rows[wallet.domain] == nil {
                rows[wallet.domain] = try wallet.lastIncomingRow()
            } else {
                landed += try read(wallet)
            }
        }
        primed = true
        for payment in landed.sorted(by: { $0.receivedAt < $1.receivedAt }) {
            announce(.payment(payment))
        }
        let tokens = try readCashu()
        for payment in tokens { announce(.cashu(CashuPaymentView(payment))) }
        return landed.count + tokens.count
    }

    /// The Cashu tokens taken since the last reading (the first reading only learns where the
    /// store stands).
    private func readCashu() throws(NodeError) -> [CashuPayment] {
        guard let cashu else { return [] }
        do {
            guard let row = cashuRow else {
                cashuRow = try cashu.lastPaymentID()
                return []
            }
            let (payments, last) = try cashu.incomingPayments(after: row)
            cashuRow = last
            return payments
        } catch {
            throw NodeError(.io("the Cashu store: \(error)"))
        }
    }

    /// A payer is paying `requestID` now (a payment offered, not yet taken).
    public func paying(_ requestID: Bytes32) {
        announce(.paying(requestID: requestID.hex))
    }

    /// The wallet's payments after the last row read, the row moved on.
    private func read(_ wallet: Wallet) throws(NodeError) -> [IncomingPaymentView] {
        let units = denominations(wallet)
        let (payments, last) = try wallet.incomingPayments(afterRow: rows[wallet.domain] ?? 0)
        rows[wallet.domain] = last
        return payments.map { IncomingPaymentView($0, domain: wallet.domain, units: units) }
    }

    /// Polls until cancelled; a failed reading is tried again at the next tick. `landed` hears
    /// how many payments each reading announced.
    public func run(
        wallets: @Sendable () throws(NodeError) -> NodeWallets, every interval: Duration,
        landed: @Sendable (Int) -> Void = { _ in }
    ) async {
        while !Task.isCancelled {
            if let count = try? poll(wallets().all), count > 0 { landed(count) }
            try? await Task.sleep(for: interval)
        }
        for subscriber in subscribers.current { subscriber.finish() }
    }
}

/// The feed's open streams, shared with each stream's termination handler.
private final class Subscribers: Sendable {
    let streams = Mutex<[UUID: AsyncStream<FeedEvent>.Continuation]>([:])

    var current: [AsyncStream<FeedEvent>.Continuation] { streams.withLock { Array($0.values) } }
}
