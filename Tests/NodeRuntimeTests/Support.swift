import Foundation
import Keystore
import NodeHost
import NodeKit
import NodeRuntime
import Tender
import TenderTestSupport

/// A node's data directory for runtime tests: a real wallet (key file, SQLite store) in a
/// temporary folder, trusting the test world's issuer, on the world's fixed clock.
struct RuntimeHome {
    let world = World()
    let folder: TemporaryDirectory
    let host: NodeHost

    init() throws {
        folder = try TemporaryDirectory("tender-runtime")
        let passphrase = folder.file("passphrase")
        try Data("correct horse".utf8).write(to: URL(fileURLWithPath: passphrase))
        host = NodeHost(
            dataDir: folder.file("node"), environment: ["TENDER_PASSPHRASE_FILE": passphrase],
            clock: FixedClock(world.now))
        _ = try host.createWallet(
            mnemonic: try Mnemonic.generate(wordCount: 12), domain: world.domain,
            cost: try ScryptCost(n: ScryptCost.minimumNewN))
        try home().trust(world.issuer, now: world.now)
    }

    func home() throws -> Wallet { try host.openWallet() }

    /// A payment of `amount` to this node, for request `requestID` (by default `id`'s): a
    /// note (serial `id`) the world's issuer made out to the node.
    func payment(_ amount: Amount, id: UInt8, for requestID: Bytes32? = nil) throws -> [UInt8] {
        let address = try home().address
        let note = world.note(amount, to: address, serial: id)
        let payment = world.payment(
            ProofBundle(notes: [note]), to: address, amount: amount,
            requestID: requestID ?? self.requestID(id))
        return Envelope(domain: world.domain, message: .payment(payment)).encoded()
    }

    func requestID(_ byte: UInt8) -> Bytes32 { try! Bytes32([UInt8](repeating: byte, count: 32)) }
}

/// A medium in memory for the payee's side: the test hands it payments; it keeps what the
/// payee did (started, offered, withdrew, replied, refused, finished) as a stream the test
/// reads in order. Stands in for the GATT service and for a camera.
actor FakePayeeMedium: NearbyPayeePort {
    enum Seen: Sendable, Equatable {
        case started, offered(Bytes32), withdrawn, replied, refused(String), finished
    }

    nonisolated let seen: AsyncStream<Seen>
    private nonisolated let saw: AsyncStream<Seen>.Continuation
    private var pending: [[UInt8]] = []
    private var waiter: CheckedContinuation<[UInt8]?, Never>?
    private var finished = false
    /// Called once, before the first payment is taken (a camera says it opened).
    private var onFirstRead: (@Sendable () -> Void)?

    init(onFirstRead: (@Sendable () -> Void)? = nil) {
        (seen, saw) = AsyncStream.makeStream()
        self.onFirstRead = onFirstRead
    }

    /// A payer hands over `payment`.
    func deliver(_ payment: [UInt8]) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: payment)
        } else {
            pending.append(payment)
        }
    }

    func start() { saw.yield(.started) }
    func offer(_ request: PaymentRequest) { saw.yield(.offered(request.id)) }
    func withdraw() { saw.yield(.withdrawn) }

    func nextPayment() async -> [UInt8]? {
        if let onFirstRead {
            self.onFirstRead = nil
            onFirstRead()
        }
        if finished { return nil }
        if !pending.isEmpty { return pending.removeFirst() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { waiter = $0 }
        } onCancel: {
            Task { await self.endWait() }
        }
    }

    private func endWait() {
        waiter?.resume(returning: nil)
        waiter = nil
    }

    func reply(_ receipt: [UInt8]) { saw.yield(.replied) }
    func refuse(_ error: NodeError) { saw.yield(.refused(error.code)) }

    func finish() {
        finished = true
        endWait()
        saw.yield(.finished)
    }
}

extension AsyncStream where Element: Equatable & Sendable {
    /// Reads until `element` comes; false when the stream ended first.
    func awaitNext(_ element: Element) async -> Bool {
        for await seen in self where seen == element { return true }
        return false
    }
}
