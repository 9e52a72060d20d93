import Cashu
import CashuMint
import CashuStore
import NodeKit

extension CashuWallet {
    /// Adds a mint: its keys fetched now (online), each keyset checked against its id before
    /// it is kept. Tokens of this mint can be taken offline from then on.
    public func addMint(
        _ client: MintClient, now: @Sendable () -> UInt64
    ) async throws(NodeError) -> CashuSettlement {
        var report = CashuSettlement(mint: client.url)
        let keys: Keyset.MintKeys
        do { keys = try await client.keys() } catch {
            throw NodeError(.unavailable(error.description))
        }
        guard !keys.keysets.isEmpty else {
            throw NodeError(
                .refusedEcash(
                    code: "no-keysets",
                    reason: "mint \(client.url) published no keyset this wallet can use"))
        }
        do {
            try store.addMint(client.url, now: now())
            try store.saveKeysets(keys.keysets, mint: client.url, now: now())
        } catch { throw Self.failed(error) }
        report.newKeysets = keys.keysets.count
        if !keys.skipped.isEmpty {
            report.failure =
                "skipped keysets: "
                + keys.skipped.map { "\($0.id) (\($0.reason))" }.joined(separator: ", ")
        }
        return report
    }
}
