import ArgumentParser
import DevTools
import EVM
import NodeKit

/// `--rpc` for commands that talk to a chain.
struct ChainOptions: ParsableArguments {
    @Option(help: "The chain's JSON-RPC endpoint (default: the local dev chain).")
    var rpc = NodeDefaults.rpc

    func connect<T>(_ body: (EthereumRPC, UInt64) async throws -> T) async throws -> T {
        try await withChain(rpc, body)
    }
}

/// Runs `body` with a client for `endpoint` and the chain id it serves (asked first: an
/// endpoint that does not answer is said before anything else happens).
func withChain<T>(
    _ endpoint: String, _ body: (EthereumRPC, UInt64) async throws -> T
) async throws -> T {
    let client = EthereumRPC.makeHTTPClient()
    let chain = EthereumRPC(endpoint: endpoint, client: client)
    do {
        let result = try await body(chain, try await servedChainID(chain))
        try? await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// The chain id `chain` serves, asked before anything else: an endpoint that does not answer
/// is said first, with what to check.
func servedChainID(_ chain: EthereumRPC) async throws -> UInt64 {
    do { return try await chain.chainID() } catch {
        throw NodeError(.io("\(error)"), note: "is the chain's node running? (--rpc URL)")
    }
}
