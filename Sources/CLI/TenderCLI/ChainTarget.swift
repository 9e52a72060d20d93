import ArgumentParser
import DevTools
import NodeHost
import NodeKit
import Settlement
import Tender

/// The vault and endpoint a command about one vault works on, when not told every part:
/// the data directory's chain registry (chains.toml) and wallet first, the development
/// chain's defaults last (Docs/OPERATIONS.md, "Which vault").
struct ChainTarget {
    let domain: Domain
    /// `--rpc`, else the registry entry's first endpoint, else the local dev chain.
    let endpoint: String

    /// `vault` and `chainID` as given narrow the registry's entries; the wallet's home domain
    /// comes first among them, then the only entry left; several left is the caller's to
    /// settle with --vault. None: what was given, the rest from the home domain, else the
    /// embedded defaults.
    static func resolve(
        _ host: NodeHost, vault: Address?, chainID: UInt64?, rpc: String?
    ) throws -> ChainTarget {
        let registry = try host.chainRegistry()
        let home = host.directory.exists ? try? host.openWallet().domain : nil
        let candidates = registry.entries.map(\.domain).filter {
            (vault == nil || $0.vault == vault) && (chainID == nil || $0.chainID == chainID)
        }
        let domain: Domain
        if let home, (vault ?? home.vault) == home.vault, (chainID ?? home.chainID) == home.chainID
        {
            domain = home
        } else if candidates.count == 1 {
            domain = candidates[0]
        } else if candidates.count > 1 {
            throw ValidationError(
                "chains.toml lists \(candidates.count) vaults\(chainID.map { " on chain \($0)" } ?? ""): give --vault (\(candidates.map { $0.vault.checksummed }.joined(separator: ", ")))"
            )
        } else {
            // A part not given comes from the wallet's home before the defaults: `--vault V`
            // alone on a wallet of chain 8453 means V on 8453.
            domain = Domain(
                chainID: chainID ?? home?.chainID ?? NodeDefaults.chainID,
                vault: vault ?? home?.vault ?? NodeDefaults.vault)
        }
        return ChainTarget(
            domain: domain,
            endpoint: rpc ?? registry.entry(for: domain)?.endpoints.first ?? NodeDefaults.rpc)
    }
}
