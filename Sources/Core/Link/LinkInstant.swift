/// A reading of a monotonic clock in milliseconds. The link never reads a clock: the I/O side
/// passes its own reading (Posix's `Deadline.now.milliseconds` on a node), tests pass numbers.
public struct LinkInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (lhs: LinkInstant, rhs: LinkInstant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    /// Saturates instead of trapping: `now` comes from outside and may be anything.
    public static func + (lhs: LinkInstant, rhs: Duration) -> LinkInstant {
        LinkInstant(milliseconds: lhs.milliseconds.addingSaturating(rhs.wholeMilliseconds))
    }

    /// Saturates instead of trapping, as `+` does.
    public static func - (lhs: LinkInstant, rhs: LinkInstant) -> Duration {
        .milliseconds(lhs.milliseconds.subtractingSaturating(rhs.milliseconds))
    }

    public var description: String { "\(milliseconds) ms" }
}

extension Duration {
    /// Whole milliseconds, saturated to `Int64`.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingSaturating(attoseconds / 1_000_000_000_000_000)
    }
}

extension Int64 {
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        if overflow { return other < 0 ? .min : .max }
        return sum
    }

    func subtractingSaturating(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        if overflow { return other < 0 ? .max : .min }
        return difference
    }
}
