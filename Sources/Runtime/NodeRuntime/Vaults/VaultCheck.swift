import Codecs
import EVM
import NodeHost
import NodeKit
import Tender

/// What a domain's endpoints say of its vault, before anyone takes or issues notes for it:
/// the first endpoint that answers decides. A node configured for an address without a
/// Tender vault would ask for payments nobody can settle.
public enum VaultCheck: Sendable, Equatable {
    /// `endpoint` serves the domain's chain, and the domain's vault is there.
    case confirmed(endpoint: String)
    /// No endpoint answered; why, one line per endpoint (redacted).
    case unreachable([String])

    /// Checks `domain` through `endpoints` in order. An endpoint that serves another chain,
    /// or a chain without the vault, is a `.usage` error naming both; one that does not
    /// answer passes to the next.
    public static func check(
        _ domain: Domain, endpoints: [String]
    ) async throws(NodeError) -> VaultCheck {
        var failures: [String] = []
        for endpoint in endpoints {
            let client = EthereumRPC.makeHTTPClient()
            let rpc = EthereumRPC(endpoint: endpoint, client: client)
            let answer: Result<(UInt64, VaultIdentity), EVMError>
            do {
                let served = try await rpc.chainID()
                answer = .success(
                    (
                        served,
                        served == domain.chainID
                            ? try await rpc.vaultIdentity(of: domain) : .noContract
                    ))
            } catch {
                answer = .failure(error)
            }
            try? await client.shutdown()
            switch answer {
            case .failure(let error):
                failures.append("\(error)")
            case .success((let served, _)) where served != domain.chainID:
                throw NodeError(
                    .usage(
                        "\(RedactedURL.text(endpoint)) serves chain \(served), not chain \(domain.chainID)"
                    ), resolvedBy: .checkChainID)
            case .success((_, .tenderVault)):
                return .confirmed(endpoint: endpoint)
            case .success((_, let identity)):
                throw NodeError(
                    .usage(
                        "there is \(identity) at \(domain.vault) on chain \(domain.chainID) (\(RedactedURL.text(endpoint)))"
                    ), resolvedBy: .checkVault)
            }
        }
        return .unreachable(failures)
    }
}
