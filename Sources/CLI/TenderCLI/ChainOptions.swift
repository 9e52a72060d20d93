import ArgumentParser
import DevTools
import NodeHost
import NodeRuntime

/// `--rpc` for commands that talk to a chain.
struct ChainOptions: ParsableArguments {
    @Option(help: "The chain's JSON-RPC endpoint (default: the local dev chain).")
    var rpc = NodeDefaults.rpc

    /// Runs `body` with a desk on the chain `--rpc` serves (asked first).
    func connect<T>(host: NodeHost, _ body: (VaultDesk) async throws -> T) async throws -> T {
        try await VaultDesk.connect(to: rpc, host: host, body)
    }
}
