import Link
import Posix

/// The link's clock: the monotonic clock in milliseconds.
func linkNow() -> LinkInstant { LinkInstant(milliseconds: Deadline.now.milliseconds) }

/// Runs a link owner's timers (resends, timeouts) from a task of their own.
enum LinkTimer {
    /// Calls `tick` until the task is cancelled or `tick` returns nil (its owner is gone),
    /// sleeping between calls as long as it says.
    static func run(_ tick: @escaping @Sendable () async -> Duration?) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled, let wait = await tick() {
                try? await Task.sleep(for: wait)
            }
        }
    }

    /// How long to sleep before `deadline`: at least 5 ms (a burst of due timers does not
    /// spin), at most 200 ms (a deadline set meanwhile is not overslept by much).
    static func nap(until deadline: LinkInstant?) -> Duration {
        guard let deadline else { return .milliseconds(200) }
        return max(.milliseconds(5), min(.milliseconds(200), deadline - linkNow()))
    }
}
