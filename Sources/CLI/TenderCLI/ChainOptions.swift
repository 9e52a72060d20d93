import ArgumentParser
import Codecs
import DevTools
import NodeHost
import NodeRuntime
import Settlement

/// `--rpc` for commands that talk to a chain.
struct ChainOptions: ParsableArguments {
    @Option(help: "The chain's JSON-RPC endpoint (default: the local dev chain).")
    var rpc = NodeDefaults.rpc

    func validate() throws {
        guard ChainEntry.isEndpoint(rpc) else {
            throw ValidationError(
                "--rpc: '\(RedactedURL.text(rpc))' is not an http:// or https:// URL with a host and a port of 1…65535"
            )
        }
    }

    /// Runs `body` with a desk on the chain `--rpc` serves (asked first).
    func connect<T>(host: NodeHost, _ body: (VaultDesk) async throws -> T) async throws -> T {
        try await VaultDesk.connect(to: rpc, host: host, body)
    }
}
