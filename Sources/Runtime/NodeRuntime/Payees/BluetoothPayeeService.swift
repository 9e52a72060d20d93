import Bluetooth
import NodeHost
import NodeKit
import Noise
import Secp256k1
import ServiceLifecycle
import Tender

/// The node's payee over Bluetooth LE: Tender's GATT service on the adapter, advertising the
/// request the API issued last (the point-of-sale page's "Charge") until it is paid or
/// expires, each payment taken and answered with its receipt. `auto` waits for an adapter (a
/// dongle plugged in later is found at the next look); `on` stops the node when there is none.
struct BluetoothPayeeService: Service {
    /// Its name in `NodeState.services`.
    static let name = "bluetooth"

    let mode: NodeConfiguration.Switch
    let localName: String
    let context: PayeeContext
    let offered: OfferedRequest
    let open: @Sendable (NearbyPayeeSetup) async throws -> any NearbyPayeePort
    /// How long `auto` waits before looking for an adapter again.
    var lookAgain: Duration = .seconds(30)

    func run() async throws {
        let (state, metrics, logger) = (context.state, context.metrics, context.logger)
        // Said once at the default level: a stall must see that nobody nearby can pay it.
        var saidAbsent = false
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await serve()
                await state.service(Self.name, is: .stopped(nil))
                return
            } catch let absent as NearbyDeviceAbsent where mode == .auto {
                if !saidAbsent {
                    logger.notice(
                        "bluetooth payee: not running (\(absent)); payments by code still work, and it starts when an adapter appears"
                    )
                    saidAbsent = true
                }
                await state.service(Self.name, is: .waiting(for: "an adapter", "\(absent)"))
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: lookAgain) }
            } catch {
                metrics.bluetoothFailed()
                // `auto` keeps the rest of the node up; `on` was asked for, so its loss stops it.
                guard mode == .auto else {
                    await state.service(Self.name, is: .stopped("\(error)"))
                    logger.error("bluetooth payee: \(error)")
                    throw error
                }
                await context.standDown(Self.name, because: error)
                return
            }
        }
    }

    /// Takes payments until the node stops; throws when the payee cannot start or fails.
    private func serve() async throws {
        let (host, clock) = (context.host, context.host.clock)
        let home = try context.wallets().home
        let loadKey = { @Sendable () throws -> NoisePrivateKey in
            try sessionKey(raw: try host.directory.loadOrCreateSessionKey())
        }
        let (events, reported) = AsyncStream.makeStream(of: NearbyPayee.Event.self)
        defer { reported.finish() }
        // Unlocked only once an adapter is found (`keyOnce`): without one it is not needed.
        let keyOnce = KeyOnce(context.walletKey)
        let payee = try await open(
            NearbyPayeeSetup(
                staticKey: loadKey, localName: localName,
                evidence: { (try? NearbyEvidence.toSend(home)) ?? [] },
                onEvidence: { NearbyEvidence.take($0, into: home, now: clock.now()) },
                onEvent: { reported.yield($0) },
                cashu: context.cashu.map { cashuTaking($0, key: keyOnce) }))
        let key = try keyOnce()
        let staticKey = try loadKey()
        // Listening before the service says it is ready: no request issued after goes unoffered.
        let changes = await offered.listen(
            sessionKey: Array(staticKey.publicKey.rawRepresentation))
        do { try await payee.start() } catch {
            await offered.close()
            throw error
        }
        var failure: (any Error)?
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await report(events) }
            group.addTask { await advertise(changes, on: payee) }
            defer { group.cancelAll() }
            do {
                try await receive(from: payee, into: home, key: key)
            } catch {
                failure = error
            }
            reported.finish()
            await offered.close()
            try await group.waitForAll()
        }
        if let failure { throw failure }
    }

    private func receive(
        from payee: any NearbyPayeePort, into home: Wallet, key: PrivateKey
    ) async throws {
        let (offered, metrics, logger) = (offered, context.metrics, context.logger)
        try await finishing(payee) {
            try await PaymentExchange(wallet: home, clock: context.host.clock).receive(
                from: payee, key: key, once: false
            ) { delivery in
                switch delivery {
                case .accepted(let received):
                    metrics.bluetoothSessionEnded(paid: true)
                    logger.info(
                        "bluetooth payee: received \(received.amount) for request \(received.requestID.hex)"
                    )
                    // A paid request is not advertised any more; the next "Charge" offers its own.
                    await offered.paid(received.requestID)
                case .refused(let error):
                    metrics.bluetoothSessionEnded(paid: false)
                    logger.warning("bluetooth payee: refused a payment: \(error)")
                }
            }
        }
    }

    /// The offered request's changes, applied to the advertisement in order.
    private func advertise(
        _ changes: AsyncStream<OfferedRequest.Change>, on payee: any NearbyPayeePort
    ) async {
        let logger = context.logger
        for await change in changes {
            switch change {
            case .offer(let request):
                do {
                    try await payee.offer(request)
                    logger.info("bluetooth payee: offering request \(request.id.hex)")
                } catch {
                    logger.error("bluetooth payee: offering request \(request.id.hex): \(error)")
                }
            case .withdraw(let id, let reason):
                await payee.withdraw()
                if reason == .expired {
                    logger.info("bluetooth payee: request \(id.hex) expired; not advertised")
                }
            }
        }
    }

    /// What happened on the air, in the node's status, feed, metrics and log.
    private func report(_ events: AsyncStream<NearbyPayee.Event>) async {
        let (state, feed, metrics, logger) = (
            context.state, context.feed, context.metrics, context.logger
        )
        for await event in events {
            switch event {
            case .ready(let adapter, let address):
                logger.info("bluetooth payee: ready on \(adapter) (\(address))")
                await state.service(Self.name, is: .serving("ready on \(adapter) (\(address))"))
            case .offered:
                if let id = await offered.current?.id { await feed.paying(id) }
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
        }
    }
}
