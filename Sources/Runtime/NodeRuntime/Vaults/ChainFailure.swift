import Codecs
import EVM
import NodeKit
import Settlement

/// A chain's failure as the node reports it: a refused transaction or call is the chain's
/// refusal, an endpoint serving another chain the caller's mistake, the rest the node's I/O.
/// Other errors pass as they are.
func nodeFailure(_ error: any Error) -> any Error {
    guard let error = error as? EVMError else { return error }
    switch error {
    case .executionReverted: return NodeError(.refusedOnChain(error.description))
    case .wrongChain: return NodeError(.usage(error.description))
    default: return NodeError(.io(error.description))
    }
}

/// The chain `endpoint` serves, asked before anything else: a malformed endpoint is the
/// caller's mistake, one that does not answer is said first, with what to check.
func servedChainID(at endpoint: EthereumRPC) async throws(NodeError) -> UInt64 {
    guard ChainEntry.isEndpoint(endpoint.endpoint) else {
        throw NodeError(
            .usage("'\(RedactedURL.text(endpoint.endpoint))' is not an http:// or https:// URL"))
    }
    do { return try await endpoint.chainID() } catch {
        throw NodeError(.io("\(error)"), resolvedBy: .checkChainEndpoint)
    }
}
