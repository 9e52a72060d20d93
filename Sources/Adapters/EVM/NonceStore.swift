import Tender

/// Where a sender keeps, across restarts, the next nonce it may use for an account on a
/// chain (the sync engine keeps it in SQLite). Docs/EVM.md, "Nonces", gives the rule.
public protocol NonceStore: Sendable {
    /// The next nonce not yet handed out, nil if none was ever recorded.
    func nextNonce(for account: Address, chainID: UInt64) async throws -> UInt64?
    /// Records that nonces below `next` are handed out. Never lowers the stored value:
    /// calls may arrive out of order.
    func advance(to next: UInt64, for account: Address, chainID: UInt64) async throws
    /// Gives `nonce` back if it is still the last one handed out (its broadcast was refused,
    /// so nothing can be using it); otherwise leaves the store as it is.
    func release(_ nonce: UInt64, for account: Address, chainID: UInt64) async throws
}
