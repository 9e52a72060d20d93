import EVM
import Testing

/// The rate limit per endpoint: a burst at once, then one request per 1/rate seconds.
@Suite struct TokenBucketTests {
    @Test func aBurstGoesAtOnceThenRequestsQueueOneIntervalApart() {
        var bucket = TokenBucket(rate: 10, burst: 3)
        let waits = (0..<6).map { _ in bucket.take(now: 0) }
        let expected = [0, 0, 0, 0.1, 0.2, 0.3]
        #expect(zip(waits, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(waits)")
    }

    @Test func tokensComeBackWithTimeUpToTheBurst() {
        var bucket = TokenBucket(rate: 4, burst: 2)
        let first = [bucket.take(now: 0), bucket.take(now: 0), bucket.take(now: 0)]
        #expect(first[0] == 0 && first[1] == 0 && abs(first[2] - 0.25) < 1e-9)
        // Ten seconds idle refill the bucket to its burst, not to forty tokens.
        let later = (0..<3).map { _ in bucket.take(now: 10) }
        #expect(later[0] == 0 && later[1] == 0 && later[2] > 0)
    }

    @Test func thePacerHoldsRequestsToTheRate() async throws {
        let pacer = RequestPacer(requestsPerSecond: 50, burst: 1)
        let start = ContinuousClock.now
        for _ in 0..<6 { try await pacer.pace() }
        // Six requests at 50/s with a burst of one: the sixth waits at least 5 × 20 ms.
        #expect(ContinuousClock.now - start >= .milliseconds(95))
    }
}
