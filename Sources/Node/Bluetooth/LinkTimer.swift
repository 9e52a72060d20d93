import Link
import Posix
import Synchronization

/// The link's clock: the monotonic clock in milliseconds.
func linkNow() -> LinkInstant { LinkInstant(milliseconds: Deadline.now.milliseconds) }

/// Runs a link owner's timers (resends, acknowledgements, timeouts) from a task of its own,
/// asleep until the owner's next deadline, or until the owner says its deadlines moved
/// (`wake`: a message sent or a datagram taken may set an earlier one). With no deadline it
/// sleeps until woken.
final class LinkTimer: Sendable {
    private struct State {
        var sleeper: CheckedContinuation<Void, Never>?
        /// A wake that came while nobody slept: the next sleep returns at once.
        var woken = false
    }

    private let state = Mutex(State())

    /// The owner's deadlines may have moved: look again now.
    func wake() {
        let sleeper = state.withLock { state in
            guard let sleeper = state.sleeper else {
                state.woken = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.sleeper = nil
            return sleeper
        }
        sleeper?.resume()
    }

    /// Calls `tick` until the task is cancelled or `tick` returns nil (its owner is gone),
    /// sleeping between calls until the deadline it gives (`.some(nil)`: none) or a wake.
    func run(_ tick: @escaping @Sendable () async -> LinkInstant??) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled, let deadline = await tick() {
                await sleep(deadline.map { max(.milliseconds(1), $0 - linkNow()) })
            }
        }
    }

    /// Sleeps `wait` (nil: no limit) or until a wake or the task's cancellation.
    private func sleep(_ wait: Duration?) async {
        let timer = wait.map { wait in
            Task { [weak self] in
                guard (try? await Task.sleep(for: wait)) != nil else { return }
                self?.wake()
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (sleeper: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if state.woken {
                        state.woken = false
                        return true
                    }
                    state.sleeper = sleeper
                    return false
                }
                if now { sleeper.resume() }
            }
        } onCancel: {
            wake()
        }
        timer?.cancel()
        state.withLock { $0.woken = false }
    }
}
