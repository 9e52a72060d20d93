import CashuStore
import CashuWallet
import NodeKit

/// The node's payee of Cashu tokens (Docs/CASHU.md): a token shown to the camera or handed to
/// the API is taken offline into the Cashu wallet, as far as the settings allow (`[payee]
/// cashu`); the sync swaps it at its mint. The feed announces it as it lands.
public struct CashuPayee: Sendable {
    public let wallet: CashuWallet
    /// Only tokens locked to the node's key (NUT-11): a payer cannot spend them elsewhere first.
    public let requireLock: Bool
    let clock: any WallClock
    let metrics: NodeMetrics

    public init(wallet: CashuWallet, requireLock: Bool, clock: any WallClock, metrics: NodeMetrics)
    {
        self.wallet = wallet
        self.requireLock = requireLock
        self.clock = clock
        self.metrics = metrics
    }

    /// Takes `text` offline, or says why not (nothing written then).
    public func take(_ text: String) throws(NodeError) -> CashuPayment {
        do {
            let payment = try wallet.receive(text, now: clock.now(), requireLock: requireLock)
            metrics.cashuTokenEnded(taken: true)
            return payment
        } catch {
            metrics.cashuTokenEnded(taken: false)
            throw error
        }
    }
}
