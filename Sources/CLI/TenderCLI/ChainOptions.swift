import ArgumentParser
import Codecs
import DevTools
import NodeHost
import NodeRuntime
import Settlement

/// `--rpc` for commands that talk to a chain.
struct ChainOptions: ParsableArguments {
    @Option(
        help:
            "The chain's JSON-RPC endpoint (default: the vault's first in chains.toml, else \(NodeDefaults.rpc))."
    )
    var rpc: String?

    func validate() throws {
        if let rpc, !ChainEntry.isEndpoint(rpc) {
            throw ValidationError(
                "--rpc: '\(RedactedURL.text(rpc))' is not an http:// or https:// URL with a host and a port of 1…65535"
            )
        }
    }

    /// Runs `body` with a desk on the chain `--rpc` serves (asked first), else the chain of
    /// the vault the data directory names (`ChainTarget`), else the local dev chain.
    func connect<T>(host: NodeHost, _ body: (VaultDesk) async throws -> T) async throws -> T {
        let endpoint =
            rpc ?? (try? ChainTarget.resolve(host, vault: nil, chainID: nil, rpc: nil))?.endpoint
            ?? NodeDefaults.rpc
        return try await VaultDesk.connect(to: endpoint, host: host, body)
    }

    /// Runs `body` with a desk on `target`'s endpoint.
    func connect<T>(
        to target: ChainTarget, host: NodeHost, _ body: (VaultDesk) async throws -> T
    ) async throws -> T {
        try await VaultDesk.connect(to: target.endpoint, host: host, body)
    }
}
