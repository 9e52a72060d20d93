import Synchronization

/// At most `rate` requests per second to one endpoint, with bursts of `burst` (a token
/// bucket): a public endpoint that counts requests is not flooded by a sync of many batches.
public struct TokenBucket: Sendable, Equatable {
    public let rate: Double
    public let burst: Double
    private var tokens: Double
    private var updated: Double

    /// `rate` requests per second (> 0); `burst` of them at once (default: one second's worth).
    public init(rate: Double, burst: Double? = nil, now: Double = 0) {
        precondition(rate > 0, "a rate limit must be positive")
        self.rate = rate
        self.burst = max(1, burst ?? rate)
        self.tokens = self.burst
        self.updated = now
    }

    /// Takes one token at `now` (seconds) and returns how long the request must wait for it.
    /// Waiting requests queue: each takes the next token, so n at once wait 0, 1/rate, 2/rate…
    public mutating func take(now: Double) -> Double {
        tokens = min(burst, tokens + max(0, now - updated) * rate)
        updated = max(updated, now)
        tokens -= 1
        return tokens >= 0 ? 0 : -tokens / rate
    }
}

/// A token bucket shared by every copy of one `EthereumRPC`.
public final class RequestPacer: Sendable {
    private let bucket: Mutex<TokenBucket>
    private let start = ContinuousClock.now

    public init(requestsPerSecond: Double, burst: Double? = nil) {
        bucket = Mutex(TokenBucket(rate: requestsPerSecond, burst: burst))
    }

    /// Waits for this request's turn.
    public func pace() async throws(EVMError) {
        let elapsed = ContinuousClock.now - start
        let now =
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // Capped at an hour: a wait no setting should ask for, and one a `Duration` holds.
        let wait = min(bucket.withLock { $0.take(now: now) }, 3_600)
        guard wait > 0 else { return }
        do { try await Task.sleep(for: .seconds(wait)) } catch { throw .cancelled }
    }
}
