/// The wait after consecutive failed passes: the pause doubled per failure up to `cap`, then
/// a random part of it dropped ("equal jitter": between half and all of it), so nodes that
/// lost the same endpoint at once do not come back at once.
public struct Backoff: Sendable, Equatable {
    public var cap: Duration
    public var jitter: Bool

    public init(cap: Duration = .seconds(60), jitter: Bool = true) {
        self.cap = cap
        self.jitter = jitter
    }

    public func delay(
        afterFailures failures: Int, pause: Duration, using random: inout some RandomNumberGenerator
    ) -> Duration {
        let doubled = pause * Double(1 << min(max(failures - 1, 0), 20))
        let full = min(doubled, cap)
        guard jitter else { return full }
        return full / 2 + full / 2 * Double.random(in: 0...1, using: &random)
    }
}
