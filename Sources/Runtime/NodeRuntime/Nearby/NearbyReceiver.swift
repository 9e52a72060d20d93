import BlueZ
import Bluetooth
import Foundation
import NodeKit
import Secp256k1
import Tender

/// A payee nearby (`tender receive --ble`): a request advertised, payers served side by side,
/// each payment accepted as it lands and answered with its receipt, then a fresh request;
/// until SIGINT or SIGTERM (or, with `once`, the first payment).
public struct NearbyReceiver: Sendable {
    public let wallet: Wallet
    public let clock: any WallClock
    /// The Noise static key's raw bytes (the data directory's session key).
    public let sessionKey: [UInt8]
    public let adapterName: String?
    public let once: Bool
    /// A new request, carrying the session key's public half (and shown to payers: a failure
    /// to show the first stops the payee before it starts).
    public let makeRequest: @Sendable (_ sessionKey: [UInt8]) throws -> PaymentRequest
    /// Called between accepting a payment and answering it (the crash tests' point).
    public var beforeReply: @Sendable () -> Void = {}

    /// What happened, for the front end to show.
    public enum Event: Sendable {
        case ready(adapter: String, address: String)
        case connected(link: UInt32)
        case offered(link: UInt32)
        case linkEnded(link: UInt32)
        case refusedSession(link: UInt32, reason: String)
        case restarted
        case registerAgainFailed(attempt: Int, reason: String)
        case accepted(Wallet.Received)
        case refused(NodeError)
        /// The next request could not be made or offered: the paid one is withdrawn, and
        /// payers find nothing to pay until the payee is started again.
        case nextRequestFailed(String)
    }

    public init(
        wallet: Wallet, clock: any WallClock, sessionKey: [UInt8], adapterName: String?,
        once: Bool, makeRequest: @escaping @Sendable ([UInt8]) throws -> PaymentRequest
    ) {
        self.wallet = wallet
        self.clock = clock
        self.sessionKey = sessionKey
        self.adapterName = adapterName
        self.once = once
        self.makeRequest = makeRequest
    }

    public func run(key: PrivateKey, events: @escaping @Sendable (Event) -> Void) async throws {
        try await reportingBluetooth {
            let (wallet, clock) = (wallet, clock)
            let staticKey = try Bluetooth.sessionKey(raw: sessionKey)
            let publicKey = Array(staticKey.publicKey.rawRepresentation)
            let first = try makeRequest(publicKey)
            let bluetooth = try await BluetoothSession.open()
            let adapter = try await bluetooth.adapter(adapterName)
            let payee = try NearbyPayee(
                bluetooth: bluetooth, adapter: adapter, staticKey: staticKey,
                offering: NearbyPayee.Offering(first),
                evidence: { (try? NearbyEvidence.toSend(wallet)) ?? [] },
                onEvidence: { NearbyEvidence.take($0, into: wallet, now: clock.now()) },
                onEvent: { events(Event($0)) })
            try await payee.start()
            let (signalled, signal) = AsyncStream.makeStream(of: Void.self)
            let watch = SignalWatch([SIGINT, SIGTERM]) { signal.yield() }
            defer { watch.cancel() }
            let (once, makeRequest) = (once, makeRequest)
            // A signal finishes the payee (it unregisters from BlueZ) and the exchange ends.
            try await finishing(payee, when: { for await _ in signalled { return } }) {
                try await PaymentExchange(wallet: wallet, clock: clock).receive(
                    from: ReplyHook(source: payee, beforeReply: beforeReply), key: key, once: once
                ) { delivery in
                    switch delivery {
                    case .accepted(let received):
                        events(.accepted(received))
                        guard !once else { return }
                        do {
                            try await payee.offer(NearbyPayee.Offering(try makeRequest(publicKey)))
                        } catch {
                            await payee.withdraw()
                            events(.nextRequestFailed("\(error)"))
                        }
                    case .refused(let error):
                        events(.refused(error))
                    }
                }
            }
            await payee.finish()
        }
    }
}

extension NearbyReceiver.Event {
    init(_ event: NearbyPayee.Event) {
        switch event {
        case .ready(let adapter, let address): self = .ready(adapter: adapter, address: address)
        case .connected(let link): self = .connected(link: link)
        case .offered(let link): self = .offered(link: link)
        case .linkEnded(let link): self = .linkEnded(link: link)
        case .refusedSession(let link, let reason):
            self = .refusedSession(link: link, reason: reason)
        case .restarted: self = .restarted
        case .registerAgainFailed(let attempt, let reason):
            self = .registerAgainFailed(attempt: attempt, reason: reason)
        }
    }
}

/// The payee's source with a call between accepting a payment and answering it.
private struct ReplyHook<Source: PaymentSource>: PaymentSource {
    let source: Source
    let beforeReply: @Sendable () -> Void
    func nextPayment() async throws(NodeError) -> [UInt8]? { try await source.nextPayment() }
    func reply(_ receipt: [UInt8]) async throws(NodeError) {
        beforeReply()
        try await source.reply(receipt)
    }
    func refuse(_ error: NodeError) async { await source.refuse(error) }
    func finish() async { await source.finish() }
}

/// Runs `action` once when one of `signals` arrives (instead of the default of dying), so a
/// payee can unregister from BlueZ before it exits.
final class SignalWatch {
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32], action: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }

    func cancel() { for source in sources { source.cancel() } }
}
