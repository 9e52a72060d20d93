import AsyncHTTPClient
import NIOCore

/// A client of one Cashu mint over HTTP (NUT-01…09). Every answer is checked against what its
/// NUT promises before it is returned; anything else is a `MintError` naming what was wrong.
/// Signatures are returned blinded: `PreparedOutput.proof(from:keyset:)` checks their DLEQ
/// proofs (NUT-12) and unblinds them.
///
/// The `HTTPClient` is the caller's (it owns its threads and must be shut down once);
/// `makeHTTPClient` makes one configured for this use.
public struct MintClient: Sendable {
    /// The mint's URL, without a trailing slash (as tokens name it, NUT-00).
    public let url: String
    /// The whole request, connection included.
    public var timeout: Duration
    /// For a melt, which waits for the Lightning payment (NUT-05 asks for a long timeout).
    public var meltTimeout: Duration
    /// A larger answer is refused (a hostile mint cannot exhaust memory).
    public var maximumAnswerBytes: Int
    let client: HTTPClient

    public init(url: String, client: HTTPClient, timeout: Duration = .seconds(20)) {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        self.url = url
        self.client = client
        self.timeout = timeout
        self.meltTimeout = max(timeout, .seconds(60))
        self.maximumAnswerBytes = 4 << 20
    }

    /// An HTTP client that fails a request at once when the mint refuses the connection
    /// (AsyncHTTPClient otherwise retries until the request's deadline), so a mint that is
    /// down is `unreachable` in milliseconds. `readTimeout`: a mint silent that long fails the
    /// request (`timeout`) even when busy tasks delay its deadline; keep it above the melt
    /// timeout, since a melt is silent while the payment is made. Redirects are not followed:
    /// a request names the mint it is for.
    public static func makeHTTPClient(
        connectTimeout: Duration = .seconds(5), readTimeout: Duration = .seconds(90)
    ) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = TimeAmount(connectTimeout)
        configuration.timeout.read = TimeAmount(readTimeout)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func error(_ kind: MintError.Kind, _ operation: String) -> MintError {
        MintError(kind, mint: url, operation: operation)
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
