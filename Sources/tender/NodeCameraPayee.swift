import Logging
import NodeAPI
import NodeHost
import NodeKit
import QRTransport
import Secp256k1
import ServiceLifecycle
import Synchronization
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
            metrics.cameraFailed()
            await context.standDown(Self.name, because: error)
            return
        }
        var lastProblem: String?
        let scanning = CameraOpen()
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await serve(home, key: key, scanning: scanning)
                break
            } catch {
                // Said once per problem: a camera left unplugged is not a log flood; said
                // again when it comes back after the camera had worked.
                let problem = "\(error)"
                let wasScanning = scanning.close()
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

    /// Takes payments until the node stops (returns) or the camera fails (throws); `scanning`
    /// is set once the camera is open (and cleared by `run` when it fails).
    private func serve(_ home: Wallet, key: PrivateKey, scanning: CameraOpen) async throws {
        let (state, feed, metrics, logger) = (
            context.state, context.feed, context.metrics, context.logger
        )
        let source = CameraPaymentSource(opening: CameraPaymentSource.webcam(device)) { event in
            switch event {
            case .opened(let camera):
                logger.info("camera payee: scanning \(camera)")
                scanning.opened()
                // Said only while it is still true: a camera that failed at once says so.
                Task {
                    guard scanning.isOpen else { return }
                    await state.service(Self.name, is: "scanning \(camera)")
                }
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

/// Whether the camera is open now: set by the scanning thread's event, cleared by `run` when
/// the camera fails (a status that arrives late then says nothing).
private final class CameraOpen: Sendable {
    private let open = Atomic<Bool>(false)

    func opened() { open.store(true, ordering: .sequentiallyConsistent) }
    var isOpen: Bool { open.load(ordering: .sequentiallyConsistent) }

    /// Whether it was open; closed from now on.
    func close() -> Bool { open.exchange(false, ordering: .sequentiallyConsistent) }
}
