import Codecs
import EVM
import NodeKit
import Settlement
import Tender

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

/// Runs `body`, which sends a transaction from `sender`: the node's refusal for want of gas
/// (geth: "insufficient funds for gas * price + value: … want N"; py-evm: "… cannot afford txn
/// gas N …", its sender a Python bytes literal) is said as `noGas`, naming the address, the
/// chain, what it holds and what the transaction needed.
func sending<T>(
    from sender: Address, on chainID: UInt64, through rpc: EthereumRPC,
    _ body: () async throws -> T
) async throws -> T {
    do { return try await body() } catch let error as EVMError {
        guard case .rpc(_, let message, _) = error, let needed = gasNeeded(in: message) else {
            throw error
        }
        let held = (try? await rpc.balance(of: sender, at: .pending)) ?? 0
        throw NodeError(
            .noGas(
                account: sender, chainID: chainID, needed: needed,
                held: Amount(exactly: held) ?? .max),
            note: "nothing was sent")
    }
}

/// What a node's "cannot pay" refusal says the transaction needed; nil for another refusal
/// (0 when it says no figure).
func gasNeeded(in message: String) -> Amount? {
    let lowered = message.lowercased()
    guard lowered.contains("insufficient funds") || lowered.contains("cannot afford") else {
        return nil
    }
    for marker in ["want ", "txn gas "] {
        guard let range = lowered.range(of: marker) else { continue }
        let digits = lowered[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        if let amount = Amount(digits) { return amount }
    }
    return 0
}
