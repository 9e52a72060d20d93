#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the monotonic clock, in milliseconds: for timeouts of blocking system calls,
/// which a wall-clock change must not stretch or cut.
public struct Deadline: Comparable, Sendable {
    public let milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static var now: Deadline {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Deadline(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }

    /// `duration` from now (at least one millisecond).
    public static func after(_ duration: Duration) -> Deadline {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Deadline(milliseconds: now.milliseconds + max(1, milliseconds))
    }

    public var hasPassed: Bool { Deadline.now >= self }

    /// Milliseconds left (0 when passed), clamped for `poll`.
    public var remaining: Int32 {
        Int32(clamping: max(0, milliseconds - Deadline.now.milliseconds))
    }

    public static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }

    /// Sleeps `milliseconds` (resuming after signals), a short wait between retries.
    public static func sleep(milliseconds: Int) {
        var spec = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&spec, &remaining) == -1 && errno == EINTR { spec = remaining }
    }
}
