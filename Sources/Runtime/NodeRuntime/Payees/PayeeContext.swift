import CashuStore
import CashuWallet
import Logging
import NodeAPI
import NodeHost
import NodeKit
import Secp256k1
import ServiceLifecycle

/// What the node's payee services (Bluetooth, camera) share: where payments go, and where
/// they report what they do.
struct PayeeContext: Sendable {
    let host: NodeHost
    /// The wallet key when the node has unlocked it already (to settle, to pay on its own).
    let key: PrivateKey?
    let wallets: @Sendable () throws(NodeError) -> NodeWallets
    let state: NodeState
    let feed: PaymentFeed
    let metrics: NodeMetrics
    let logger: Logger
    /// Where Cashu tokens shown to a payee go; nil: none are taken.
    let cashu: CashuPayee?

    /// The wallet key, unlocked now if the node has not already (a payee without its device
    /// never needs it).
    func walletKey() throws -> PrivateKey { try key ?? host.keys.walletKey() }

    /// The wallet key, and the home wallet, which takes the payments.
    func keyAndHome() throws -> (key: PrivateKey, home: Wallet) {
        (try walletKey(), try wallets().home)
    }

    /// Takes a Cashu token a payee read (`via`: which one), said in the log; the feed
    /// announces it.
    @discardableResult
    func take(cashuToken text: String, via payee: String) -> Result<CashuPayment, NodeError> {
        guard let cashu else {
            logger.info("\(payee) payee: a Cashu token was shown; this node takes none")
            return .failure(NodeError(.usage("this node takes no Cashu tokens")))
        }
        do {
            let payment = try cashu.take(text)
            let amount = CashuSettlement.text([payment.unit: payment.amount])
            logger.info(
                "\(payee) payee: took a Cashu token of \(amount) from \(payment.mint) offline (payment \(payment.id)); swapped at the next sync"
            )
            return .success(payment)
        } catch {
            // As `CashuPayee.take` counts it: one taken already is a repeat, not a refusal.
            if case .exists = error.kind {
                logger.debug("\(payee) payee: a Cashu token shown again; taken already")
            } else {
                // Clipped: the reason may quote a stranger's token (its mint URL).
                logger.warning("\(payee) payee: refused a Cashu token: \("\(error)".prefix(300))")
            }
            return .failure(error)
        }
    }

    /// A payee service that gave up: says why (status, log), then waits for the node's end.
    /// Its service returning would stop the whole node (the services end together).
    func standDown(_ service: String, because error: any Error) async {
        await state.service(service, is: .stopped("\(error)"))
        logger.error("\(service) payee: \(error)")
        try? await gracefulShutdown()
    }
}
