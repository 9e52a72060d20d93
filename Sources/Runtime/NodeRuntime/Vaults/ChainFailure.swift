import EVM
import NodeKit

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
