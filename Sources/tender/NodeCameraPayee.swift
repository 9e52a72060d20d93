import Logging
import NodeAPI
import NodeHost
import NodeKit
import QRTransport
import Secp256k1
import ServiceLifecycle
import Tender

/// The node's payee through a camera (`[payee] camera`): payment codes the payer shows (one
/// code, or an animated loop) are read, checked and accepted into the node's wallet, and the
/// signed receipt is kept there for the payer to scan off the point-of-sale page
/// (`/api/receipts/{id}/qr.svg`). A camera that is missing or goes away is looked for again
/// every `lookAgain`: the rest of the node stays up, and a webcam plugged in later is used.
struct NodeCameraPayee: Service {
    let device: String
    let context: PayeeContext
    var lookAgain: Duration = .seconds(5)

    /// Its name in `NodeState.services`.
    static let name = "camera"

    func run() async throws {
        let (state, metrics, logger) = (context.state, context.metrics, context.logger)
        let key: PrivateKey
        let home: Wallet
        do { (key, home) = try context.keyAndHome() } catch {
            await state.service(Self.name, is: "stopped: \(error)")
            logger.error("camera payee: \(error)")
            metrics.cameraFailed()
            return
        }
        var lastProblem: String?
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await serve(home, key: key)
                break
            } catch {
                // Said once per problem: a camera left unplugged is not a log flood; said
                // again when it comes back after the camera had worked.
                let problem = "\(error)"
                let wasScanning =
                    await state.services[Self.name]?.hasPrefix("scanning") ?? false
                if problem != lastProblem || wasScanning {
                    logger.warning("camera payee: \(problem); looking again every \(lookAgain)")
                    metrics.cameraFailed()
                    lastProblem = problem
                }
                await state.service(Self.name, is: "waiting for the camera: \(problem)")
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: lookAgain) }
            }
        }
        await state.service(Self.name, is: "stopped")
    }

    /// Takes payments until the node stops (returns) or the camera fails (throws).
    private func serve(_ home: Wallet, key: PrivateKey) async throws {
        let (state, feed, metrics, logger) = (
            context.state, context.feed, context.metrics, context.logger
        )
        let source = CameraPaymentSource(opening: CameraPaymentSource.webcam(device)) { event in
            switch event {
            case .opened(let camera):
                logger.info("camera payee: scanning \(camera)")
                Task { await state.service(Self.name, is: "scanning \(camera)") }
            case .offered(let requestID):
                Task { await feed.paying(requestID) }
            case .skipped(let why):
                logger.debug("camera payee: skipped \(why)")
            }
        }
        try await withGracefulShutdownHandler {
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
        } onGracefulShutdown: {
            Task { await source.finish() }
        }
    }
}
