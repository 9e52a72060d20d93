import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// A JSON-RPC 2.0 client of one EVM node over HTTP. Every answer is checked against what
/// JSON-RPC and the method promise; anything else is an `EVMError` naming what was wrong.
///
/// The `HTTPClient` is the caller's (it owns its threads and must be shut down once);
/// `makeHTTPClient` makes one configured for this use.
public struct EthereumRPC: Sendable {
    public let endpoint: String
    /// The whole request, connection included.
    public var timeout: Duration
    /// A larger answer is refused (a hostile or broken server cannot exhaust memory).
    public var maximumResponseBytes: Int
    /// Requests wait their turn here when set (a rate limit per endpoint; a batch is one).
    public var pacer: RequestPacer?
    private let client: HTTPClient
    private let ids: RequestIDs

    public init(
        endpoint: String, client: HTTPClient, timeout: Duration = .seconds(10),
        maximumResponseBytes: Int = 16 << 20
    ) {
        self.endpoint = endpoint
        self.client = client
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.ids = RequestIDs()
    }

    /// An HTTP client that fails a request at once when the node refuses the connection
    /// (AsyncHTTPClient otherwise retries until the request's deadline), so a node that is
    /// down is `unreachable` in milliseconds and the caller decides when to try again.
    /// `readTimeout`: a node silent that long after the request fails it (`timedOut`). It is
    /// kept by the event loop, so it fires even when busy tasks delay the request's deadline,
    /// which Swift tasks enforce.
    public static func makeHTTPClient(
        connectTimeout: Duration = .seconds(5), readTimeout: Duration = .seconds(10)
    ) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = TimeAmount(connectTimeout)
        configuration.timeout.read = TimeAmount(readTimeout)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// One call: its `result`, or the node's error as `EVMError.rpc` / `.executionReverted`.
    public func request(
        _ method: String, _ params: [JSONValue] = []
    ) async throws(EVMError)
        -> JSONValue
    {
        let id = ids.next()
        let answer = try await post(RPCCall(method, params).json(id: id), label: method)
        return try RPCCall.result(of: answer, id: id, method: method).get()
    }

    /// Several calls in one HTTP request; each call's own result or error, in order. An
    /// answer that leaves a call out or answers one twice is malformed as a whole.
    public func batch(_ calls: [RPCCall]) async throws(EVMError) -> [Result<JSONValue, EVMError>] {
        guard !calls.isEmpty else { return [] }
        let first = ids.next(count: calls.count)
        let body = JSONValue.array(calls.enumerated().map { $1.json(id: first + $0) })
        let label = "batch of \(calls.count)"
        let answers = try await post(body, label: label).array(label)
        var byID: [Int: JSONValue] = [:]
        for answer in answers {
            let id = try RPCCall.id(of: answer, label: label)
            guard (first..<first + calls.count).contains(id), byID[id] == nil else {
                throw .malformedResponse("\(label): unexpected or repeated id \(id)")
            }
            byID[id] = answer
        }
        guard byID.count == calls.count else {
            throw .malformedResponse("\(label): \(calls.count - byID.count) calls left unanswered")
        }
        return calls.enumerated().map { index, call in
            RPCCall.result(of: byID[first + index]!, id: first + index, method: call.method)
        }
    }

    private func post(_ body: JSONValue, label: String) async throws(EVMError) -> JSONValue {
        try await pacer?.pace()
        // The HTTP client traps on a port past 65535: refused here, whoever built the URL.
        if let port = URLComponents(string: endpoint)?.port, !(1...65_535).contains(port) {
            throw .unreachable(endpoint: endpoint, reason: "port \(port) is not 1…65535")
        }
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        // JSONValue built from strings, arrays and objects always encodes.
        request.body = .bytes(ByteBuffer(bytes: try! JSONEncoder().encode(body)))
        let bytes: ByteBuffer
        do {
            let response = try await client.execute(
                request, deadline: .now() + TimeAmount(timeout))
            guard response.status == .ok else {
                throw EVMError.httpStatus(Int(response.status.code), endpoint: endpoint)
            }
            bytes = try await response.body.collect(upTo: maximumResponseBytes)
        } catch {
            throw classify(error, label: label)
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes.readableBytesView))
        } catch {
            throw .malformedResponse(
                "\(label): the answer is not JSON (\(bytes.readableBytes) bytes)")
        }
    }

    private func classify(_ error: any Error, label: String) -> EVMError {
        if let error = error as? EVMError { return error }
        if error is NIOTooManyBytesError {
            return .malformedResponse("\(label): more than \(maximumResponseBytes) bytes")
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout:
                return .timedOut(endpoint: endpoint, method: label)
            case .cancelled:
                return .cancelled
            default: break
            }
        }
        if error is CancellationError { return .cancelled }
        // The system's word for a refused or unroutable connection, not swift-nio's wrapping
        // of it ("connection reset (error set): Connection refused (errno: 111)").
        if let error = error as? IOError {
            return .unreachable(
                endpoint: endpoint, reason: String(cString: strerror(error.errnoCode)).lowercased())
        }
        return .unreachable(endpoint: endpoint, reason: String(describing: error))
    }
}

/// Request ids unique within one client: answers are matched to calls by them.
private final class RequestIDs: Sendable {
    private let counter = Atomic<Int>(1)

    func next(count: Int = 1) -> Int {
        counter.wrappingAdd(count, ordering: .relaxed).oldValue
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
