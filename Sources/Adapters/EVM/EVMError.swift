import Codecs

/// Why a request to an EVM node, or a transaction, did not do what was asked. Every case
/// names what was wrong; none carries key material, and none shows an endpoint's path, query or
/// user part (`RedactedURL`).
public enum EVMError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection to the endpoint (refused, no route, DNS, TLS).
    case unreachable(endpoint: String, reason: String)
    /// No complete answer within the request's timeout.
    case timedOut(endpoint: String, method: String)
    /// An HTTP answer other than 200.
    case httpStatus(Int, endpoint: String)
    /// An answer that is not what JSON-RPC and the method promise: the text says what.
    case malformedResponse(String)
    /// The node refused the request (JSON-RPC error object).
    case rpc(code: Int, message: String, data: String?)
    /// The EVM reverted (geth's code 3): the `Error(string)` reason if there was one, and the
    /// raw revert data for custom errors.
    case executionReverted(reason: String?, data: [UInt8])
    /// The endpoint serves another chain than the one the transaction is signed for.
    case wrongChain(expected: UInt64, got: UInt64)
    /// The task waiting for the answer was cancelled.
    case cancelled

    public var description: String {
        switch self {
        // Endpoints are redacted: a provider's URL often holds its API key.
        case .unreachable(let endpoint, let reason):
            "cannot reach \(RedactedURL.text(endpoint)): \(RedactedURL.scrubbing(endpoint, from: reason))"
        case .timedOut(let endpoint, let method):
            "\(method) to \(RedactedURL.text(endpoint)) timed out"
        case .httpStatus(let status, let endpoint):
            "\(RedactedURL.text(endpoint)) answered HTTP \(status)"
        case .malformedResponse(let what): "malformed JSON-RPC response: \(what)"
        case .rpc(let code, let message, _): "node refused the request (\(code)): \(message)"
        case .executionReverted(let reason, _):
            "execution reverted" + (reason.map { ": \($0)" } ?? "")
        case .cancelled: "cancelled"
        case .wrongChain(let expected, let got):
            "endpoint serves chain \(got), expected chain \(expected)"
        }
    }
}
