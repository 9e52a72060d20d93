import NodeKit
import Tender

extension SettlementEngine {
    /// Claims what the vault owes this node's key in each token of `snapshot` (payouts the
    /// token refused at a redeem, Docs/VAULT.md), at the collateral's cadence and only while
    /// no transaction of this chain is open: each claim is simulated first (a token that still
    /// refuses costs nothing and is said), then signed and sent. Nothing is recorded: the
    /// vault's `owed` is the record, zeroed by a claim that goes through, read again next time.
    func claimOwed(
        tokens snapshot: CollateralSnapshot, events: @Sendable (Event) -> Void
    ) async throws(NodeError) {
        let tokens = Set(snapshot.collateral.keys.map(\.asset)).filter { $0 != .zero }.sorted()
        guard !tokens.isEmpty, try mine().isEmpty else { return }
        let owed = try await chain.owed(vault: wallet.domain.vault, assets: tokens)
        for asset in tokens {
            guard let amount = owed[asset] else { continue }
            let signed: (hash: Bytes32, raw: [UInt8])
            do {
                signed = try await chain.signClaim(
                    vault: wallet.domain.vault, asset: asset, nonce: try await nextNonce())
            } catch {
                events(.stillOwed(asset: asset, amount: amount, reason: error.description))
                continue
            }
            try await chain.send(raw: signed.raw)
            events(.claimSent(asset: asset, amount: amount, tx: signed.hash))
        }
    }
}
