import NodeKit
import QRTransport
import Secp256k1
import ServiceLifecycle

/// The node's payee through a camera (`[payee] camera`): payment codes the payer shows (one
/// code, or an animated loop) are read, checked and accepted into the node's wallet, and the
/// signed receipt is kept there for the payer to scan off the point-of-sale page
/// (`/api/receipts/{id}/qr.svg`). A camera that is missing or goes away is looked for again
/// every `lookAgain`: the rest of the node stays up, and a webcam plugged in later is used.
struct CameraPayeeService: Service {
    /// Its name in `NodeState.services`.
    static let name = "camera"

    let device: String
    let context: PayeeContext
    /// The payments the camera shows; its events said as they happen.
    let open:
        @Sendable (String, @escaping @Sendable (CameraPaymentSource.Event) -> Void) ->
            any PaymentSource
    var lookAgain: Duration = .seconds(5)

    func run() async throws {
        let (state, metrics, logger) = (context.state, context.metrics, context.logger)
        let key: PrivateKey
        let home: Wallet
        do { (key, home) = try context.keyAndHome() } catch {
            metrics.cameraFailed()
            await context.standDown(Self.name, because: error)
            return
        }
        var lastProblem: String?
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            var opened = false
            do {
                try await serve(home, key: key) { opened = true }
                break
            } catch {
                // Said once per problem: a camera left unplugged is not a log flood; said
                // again when it comes back after the camera had worked.
                let problem = "\(error)"
                if problem != lastProblem || opened {
                    logger.warning("camera payee: \(problem); looking again every \(lookAgain)")
                    metrics.cameraFailed()
                    lastProblem = problem
                }
                await state.service(Self.name, is: .waiting(for: "the camera", problem))
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: lookAgain) }
            }
        }
        await state.service(Self.name, is: .stopped(nil))
    }

    /// Takes payments until the node stops (returns) or the camera fails (throws); `opened`
    /// is called once the camera is open.
    private func serve(
        _ home: Wallet, key: PrivateKey, opened: () -> Void
    ) async throws {
        let (events, reported) = AsyncStream.makeStream(of: CameraPaymentSource.Event.self)
        let source = open(device) { reported.yield($0) }
        var failure: (any Error)?
        // Every event is reported before this returns: a camera that fails at once is then
        // said to be waiting, never left "scanning".
        let wasOpen = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await report(events) }
            do { try await receive(from: source, into: home, key: key) } catch {
                failure = error
            }
            reported.finish()
            return await group.next() ?? false
        }
        if wasOpen { opened() }
        if let failure { throw failure }
    }

    private func receive(
        from source: any PaymentSource, into home: Wallet, key: PrivateKey
    )
        async throws
    {
        let (metrics, logger) = (context.metrics, context.logger)
        try await finishing(source) {
            try await PaymentExchange(wallet: home, clock: context.host.clock).receive(
                from: source, key: key, once: false
            ) { delivery in
                switch delivery {
                case .accepted(let received):
                    if received.repeated {
                        logger.debug(
                            "camera payee: request \(received.requestID.hex) shown again; already paid"
                        )
                    } else {
                        metrics.cameraPaymentEnded(paid: true)
                        logger.info(
                            "camera payee: received \(received.amount) for request \(received.requestID.hex)"
                        )
                    }
                case .refused(let error):
                    metrics.cameraPaymentEnded(paid: false)
                    logger.warning("camera payee: refused a payment: \(error)")
                }
            }
        }
    }

    /// What the camera did, in the node's status, feed and log, in order; whether it opened.
    private func report(_ events: AsyncStream<CameraPaymentSource.Event>) async -> Bool {
        let (state, feed, logger) = (context.state, context.feed, context.logger)
        var opened = false
        for await event in events {
            switch event {
            case .opened(let camera):
                opened = true
                logger.info("camera payee: scanning \(camera)")
                await state.service(Self.name, is: .serving("scanning \(camera)"))
            case .offered(let requestID):
                await feed.paying(requestID)
            case .cashuToken(let text):
                context.take(cashuToken: text, via: Self.name)
            case .skipped(let why):
                logger.debug("camera payee: skipped \(why)")
            }
        }
        return opened
    }
}
