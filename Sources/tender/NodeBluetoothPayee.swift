import BlueZ
import Bluetooth
import Logging
import NodeAPI
import NodeHost
import NodeKit
import Secp256k1
import ServiceLifecycle
import Tender

/// The node's payee over Bluetooth LE: Tender's GATT service on the adapter, advertising the
/// request the API issued last (the point-of-sale page's "Charge") while it is waiting, each
/// payment taken and answered with its receipt. `auto` waits for an adapter (a dongle plugged
/// in later is found at the next look); `on` stops the node when there is none.
struct NodeBluetoothPayee: Service {
    let mode: NodeConfiguration.Switch
    let localName: String
    let context: PayeeContext
    let offers: RequestOffers
    /// How long `auto` waits before looking for an adapter again.
    var lookAgain: Duration = .seconds(30)

    /// Its name in `NodeState.services`.
    static let name = "bluetooth"

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                let (bluetooth, adapter) = try await find()
                try await serve(bluetooth, adapter)
                return
            } catch let error as BluetoothError
                where mode == .auto
                && [.adapterNotFound, .bluetoothdNotRunning, .noSystemBus].contains(error.kind)
            {
                await context.state.service(Self.name, is: "waiting for an adapter: \(error)")
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: lookAgain) }
            } catch {
                context.metrics.bluetoothFailed()
                // `auto` keeps the rest of the node up; `on` was asked for, so its loss stops it.
                if mode == .on {
                    await context.state.service(Self.name, is: "stopped: \(error)")
                    context.logger.error("bluetooth payee: \(error)")
                    throw error
                }
                await context.standDown(Self.name, because: error)
                return
            }
        }
    }

    private func find() async throws -> (BluetoothSession, Adapter) {
        let bluetooth = try await BluetoothSession.open()
        return (bluetooth, try await bluetooth.adapter(nil, wait: .seconds(2)))
    }

    private func serve(_ bluetooth: BluetoothSession, _ adapter: Adapter) async throws {
        // Unlocked only now if the node has not already: without an adapter it is not needed.
        let (key, home) = try context.keyAndHome()
        let host = context.host
        let staticKey = try sessionKey(raw: try host.directory.loadOrCreateSessionKey())
        let offered = OfferedRequest()
        let (state, feed, metrics, logger) = (
            context.state, context.feed, context.metrics, context.logger
        )
        let payee = try NearbyPayee(
            bluetooth: bluetooth, adapter: adapter, staticKey: staticKey, offering: nil,
            localName: localName,
            evidence: { (try? BluetoothEvidence.toSend(home)) ?? [] },
            onEvidence: { [clock = host.clock] in
                BluetoothEvidence.take($0, into: home, now: clock.now())
            },
            onEvent: { event in
                switch event {
                case .ready(let adapter, let address):
                    logger.info("bluetooth payee: ready on \(adapter) (\(address))")
                    Task { await state.service(Self.name, is: "ready on \(adapter) (\(address))") }
                case .offered:
                    Task { if let id = await offered.id { await feed.paying(id) } }
                case .refusedSession(_, let reason):
                    logger.warning("bluetooth payee: a session refused: \(reason)")
                    metrics.bluetoothSessionEnded(paid: false)
                case .restarted:
                    logger.info("bluetooth payee: bluetoothd restarted; registered again")
                case .registerAgainFailed(let attempt, let reason):
                    logger.warning(
                        "bluetooth payee: registering again failed (attempt \(attempt)): \(reason)")
                case .connected, .linkEnded: break
                }
            })
        // Listening before the service says it is ready: no request issued after goes unoffered.
        let requests = offers.listen(sessionKey: Array(staticKey.publicKey.rawRepresentation))
        defer { offers.close() }
        try await payee.start()
        let clock = host.clock
        let offering = Task {
            // Only the request offered now can expire off the air: one timer, for it.
            var expiring: Task<Void, Never>?
            for await request in requests {
                expiring?.cancel()
                await offered.set(request.id)
                do {
                    try await payee.offer(NearbyPayee.Offering(request))
                    logger.info("bluetooth payee: offering request \(request.id.hex)")
                } catch {
                    logger.error("bluetooth payee: offering request \(request.id.hex): \(error)")
                }
                let (id, expiry) = (request.id, request.expiry)
                expiring = Task {
                    let now = clock.now()
                    if expiry > now {
                        do { try await Task.sleep(for: .seconds(expiry - now)) } catch { return }
                    }
                    if await offered.clear(ifStill: id) {
                        await payee.withdraw()
                        logger.info("bluetooth payee: request \(id.hex) expired; not advertised")
                    }
                }
            }
            expiring?.cancel()
        }
        defer { offering.cancel() }
        try await withGracefulShutdownHandler {
            try await PaymentExchange(wallet: home, clock: clock).receive(
                from: payee, key: key, once: false
            ) { delivery in
                switch delivery {
                case .accepted(let received):
                    metrics.bluetoothSessionEnded(paid: true)
                    logger.info(
                        "bluetooth payee: received \(received.amount) for request \(received.requestID.hex)"
                    )
                    // A paid request is not advertised any more; the next "Charge" offers its own.
                    Task {
                        if await offered.clear(ifStill: received.requestID) {
                            await payee.withdraw()
                        }
                    }
                case .refused(let error):
                    metrics.bluetoothSessionEnded(paid: false)
                    logger.warning("bluetooth payee: refused a payment: \(error)")
                }
            }
        } onGracefulShutdown: {
            Task { await payee.finish() }
        }
        await state.service(Self.name, is: "stopped")
    }
}

/// The request the payee advertises now, if any.
private actor OfferedRequest {
    private(set) var id: Bytes32?

    func set(_ id: Bytes32) { self.id = id }

    /// Forgets `id` if it is still the one offered; true when it was.
    func clear(ifStill id: Bytes32) -> Bool {
        guard self.id == id else { return false }
        self.id = nil
        return true
    }
}
