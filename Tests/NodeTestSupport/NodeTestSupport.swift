import Foundation
import NodeKit
import Secp256k1
import Synchronization
import Tender
import TenderTestSupport

/// Wallets for node-layer tests: real stores in temporary folders, the test world's keys and
/// issuer, a fixed clock.
public struct Node {
    public let world = World()
    public let clock: FixedClock

    public init(now: UInt64? = nil) { clock = FixedClock(now ?? World().now) }

    /// A wallet for `key` trusting the world's issuer.
    public func wallet(_ key: PrivateKey) throws -> Wallet {
        let folder = try TemporaryDirectory("tender-node")
        let wallet = try Wallet.create(
            at: folder.file("wallet.sqlite"), address: Address(publicKey: key.publicKey),
            domain: world.domain)
        try wallet.trust(world.issuer, now: clock.now())
        return wallet
    }

    /// Alice's wallet holding notes of `amounts`, issued and received through the wallet.
    public func fundedAlice(_ amounts: [Amount]) throws -> Wallet {
        let alice = try wallet(world.aliceKey)
        let notes = amounts.enumerated().map { world.note($1, serial: UInt8($0 + 1)) }
        let payment = world.payment(
            ProofBundle(notes: notes), to: world.alice, amount: amounts.reduce(0, +),
            requestID: try Bytes32([UInt8](repeating: 0xEE, count: 32)))
        _ = try alice.receive(
            Envelope(domain: world.domain, message: .payment(payment)).encoded(),
            key: world.aliceKey, now: clock.now())
        return alice
    }

    public func order(to payee: Address, _ amount: Amount, id: UInt8) -> PaymentExchange.Order {
        PaymentExchange.Order(
            payee: payee, amount: amount, asset: .zero, memo: "tea", requestID: requestID(id))
    }

    public func requestID(_ byte: UInt8) -> Bytes32 {
        try! Bytes32([UInt8](repeating: byte, count: 32))
    }
}

/// An in-memory medium: `send` hands the envelope straight to the payee's wallet (when there
/// is one) and keeps its receipt for `nextReceipt`. Failures are injected per step. Only for
/// tests of the exchange's logic; the real transports are tested against real files, codes
/// and cameras.
public actor MemoryTransport: PaymentTransport {
    public enum Step: Sendable { case prepare, sendNothing, sendPartly }

    public let payee: Wallet?
    public let payeeKey: PrivateKey?
    public let failAt: Step?
    public let clock: FixedClock
    /// Receipts to offer before the real one (stale codes on a screen).
    private var queued: [[UInt8]]
    /// Whether the medium waits for ever once it has nothing to offer (a payee that never
    /// answers) or ends (a source that has no more).
    public let silentWhenDrained: Bool
    public private(set) var sent: [[UInt8]] = []
    public private(set) var finished = false

    public init(
        payee: Wallet? = nil, key: PrivateKey? = nil, failAt: Step? = nil,
        clock: FixedClock, stale: [[UInt8]] = [], silentWhenDrained: Bool = true
    ) {
        self.silentWhenDrained = silentWhenDrained
        self.payee = payee
        self.payeeKey = key
        self.failAt = failAt
        self.clock = clock
        self.queued = stale
    }

    public func prepare(_ envelope: [UInt8]) async throws(NodeError) {
        if failAt == .prepare { throw NodeError(.missing("no such device")) }
    }

    public func send(_ envelope: [UInt8]) async throws(TransportFailure) {
        switch failAt {
        case .sendNothing: throw .nothingSent(NodeError(.io("the link never opened")))
        case .sendPartly: throw .mayHaveSent(NodeError(.io("the link dropped mid-message")))
        default: break
        }
        sent.append(envelope)
        guard let payee, let payeeKey else { return }
        do {
            queued.append(try payee.receive(envelope, key: payeeKey, now: clock.now()).receipt)
        } catch { throw .mayHaveSent(error) }
    }

    /// Queued receipts, then nothing more until cancelled (a payee that never answers), or
    /// the end of the medium.
    public func nextReceipt() async throws(NodeError) -> [UInt8]? {
        if !queued.isEmpty { return queued.removeFirst() }
        guard silentWhenDrained else { return nil }
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        return nil
    }

    public func finish() async { finished = true }
}

/// What a payee's exchange did with each payment, in order.
public final class Deliveries: Sendable {
    private let list = Mutex<[PaymentExchange.Delivery]>([])

    public init() {}

    public func append(_ item: PaymentExchange.Delivery) { list.withLock { $0.append(item) } }
    public var items: [PaymentExchange.Delivery] { list.withLock { $0 } }
}

/// A count several tasks add to.
public final class Counter: Sendable {
    private let count = Mutex(0)

    public init() {}

    public func add() { count.withLock { $0 += 1 } }
    public var value: Int { count.withLock { $0 } }
}
