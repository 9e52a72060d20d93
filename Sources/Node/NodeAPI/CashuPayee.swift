import CashuStore
import CashuWallet
import NodeKit
import Synchronization

/// The node's payee of Cashu tokens (Docs/CASHU.md): a token shown to the camera or handed to
/// the API is taken offline into the Cashu wallet, as far as the settings allow (`[payee]
/// cashu`); the sync swaps it at its mint. The feed announces it as it lands.
///
/// The wallet is opened when first needed and kept: a node that never unlocks the wallet key
/// can take tokens once the lock key's public half is recorded (the first `cashu` command on
/// the node's host records it, while the node runs).
public final class CashuPayee: Sendable {
    /// Only tokens locked to the node's key (NUT-11): a payer cannot spend them elsewhere first.
    public let requireLock: Bool
    let clock: any WallClock
    let metrics: NodeMetrics
    private let open: @Sendable () throws(NodeError) -> CashuWallet?
    private let opened = Mutex<CashuWallet?>(nil)

    /// `open` gives the wallet, or nil while it cannot take tokens yet.
    public init(
        requireLock: Bool, clock: any WallClock, metrics: NodeMetrics,
        open: @escaping @Sendable () throws(NodeError) -> CashuWallet?
    ) {
        self.requireLock = requireLock
        self.clock = clock
        self.metrics = metrics
        self.open = open
    }

    public convenience init(
        wallet: CashuWallet, requireLock: Bool, clock: any WallClock, metrics: NodeMetrics
    ) {
        self.init(requireLock: requireLock, clock: clock, metrics: metrics) { wallet }
    }

    /// The wallet, opened now if it was not.
    public func wallet() throws(NodeError) -> CashuWallet {
        if let wallet = opened.withLock({ $0 }) { return wallet }
        guard let wallet = try open() else {
            throw NodeError(
                .missing(
                    "the Cashu wallet's lock key is not recorded yet: the wallet key must open the Cashu wallet once (adding a mint on the node's host does)"
                ))
        }
        opened.withLock { $0 = wallet }
        return wallet
    }

    /// Takes `text` offline, or says why not (nothing written then).
    public func take(_ text: String) throws(NodeError) -> CashuPayment {
        do {
            let payment = try wallet().receive(text, now: clock.now(), requireLock: requireLock)
            metrics.cashuTokenEnded(taken: true)
            return payment
        } catch {
            // One taken already (still in view of the camera, handed in twice) is no refusal.
            if case .exists = error.kind {
                metrics.cashuTokenRepeated()
            } else {
                metrics.cashuTokenEnded(taken: false)
            }
            throw error
        }
    }
}
