import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Waits for descriptors to become readable or writable without holding a cooperative thread
/// and without polling on a timer: a thread of its own sleeps in `poll` on every descriptor
/// waited on, a wake pipe and the nearest deadline. A wait ends when its descriptor is ready
/// (or in error: the caller's next call says which), its deadline passes, its task is
/// cancelled, or the descriptor is `forget`-ten, which its owner does before closing it. The
/// thread ends with the last reference to the watch.
public final class ReadinessWatch: Sendable {
    public enum Interest: Sendable { case readable, writable }
    public enum Outcome: Sendable, Equatable { case ready, timedOut, cancelled, closed }

    private let shared: Shared

    public init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        _ = try retryingInterrupts("pipe") { pipe(&ends) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        shared = Shared(wakeRead: ends[0], wakeWrite: ends[1])
        let shared = self.shared
        guard spawnDetachedThread({ shared.run() }) else {
            shared.stop()
            shared.closeWake()
            throw SystemError("pthread_create", code: EAGAIN)
        }
    }

    deinit { shared.stop() }

    /// Waits until `descriptor` is ready for `interest`, or `timeout` (nil: no limit) passes.
    public func wait(
        _ descriptor: Int32, for interest: Interest, timeout: Duration? = nil
    ) async -> Outcome {
        let deadline = timeout.map { Deadline.after($0) }
        let events = Int16(interest == .readable ? POLLIN : POLLOUT)
        let id = shared.nextID()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiter = Waiter(
                    descriptor: descriptor, events: events, deadline: deadline,
                    continuation: continuation)
                guard shared.add(waiter, id: id) else {
                    return continuation.resume(returning: .closed)
                }
                // Cancelled before the waiter was there for the handler to find.
                if Task.isCancelled { shared.end(id, with: .cancelled) }
            }
        } onCancel: {
            shared.end(id, with: .cancelled)
        }
    }

    /// Ends every wait on `descriptor` (`closed`): its owner is about to close it.
    public func forget(_ descriptor: Int32) { shared.forget(descriptor) }

    /// Waits not yet ended.
    public var pendingWaits: Int { shared.pendingWaits }
}

private struct Waiter: Sendable {
    let descriptor: Int32
    let events: Int16
    let deadline: Deadline?
    let continuation: CheckedContinuation<ReadinessWatch.Outcome, Never>
}

/// What the watch and its thread share. Whoever removes a waiter resumes it: exactly once.
private final class Shared: Sendable {
    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var stopped = false
    }

    private let state = Mutex(State())
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(wakeRead: Int32, wakeWrite: Int32) {
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
    }

    func nextID() -> UInt64 {
        state.withLock {
            $0.nextID += 1
            return $0.nextID
        }
    }

    var pendingWaits: Int { state.withLock { $0.waiters.count } }

    func add(_ waiter: Waiter, id: UInt64) -> Bool {
        let added = state.withLock { state in
            guard !state.stopped else { return false }
            state.waiters[id] = waiter
            return true
        }
        if added { wake() }
        return added
    }

    func end(_ id: UInt64, with outcome: ReadinessWatch.Outcome) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(
            returning: outcome)
        wake()
    }

    func forget(_ descriptor: Int32) {
        let gone = state.withLock { state in
            let ids = state.waiters.filter { $0.value.descriptor == descriptor }.map(\.key)
            return ids.compactMap { state.waiters.removeValue(forKey: $0) }
        }
        for waiter in gone { waiter.continuation.resume(returning: .closed) }
        wake()
    }

    func stop() {
        let gone = state.withLock { state in
            state.stopped = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in gone { waiter.continuation.resume(returning: .closed) }
        wake()
    }

    func closeWake() {
        close(wakeRead)
        close(wakeWrite)
    }

    private func wake() {
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: the thread reads them all at once.
        _ = write(wakeWrite, &byte, 1)
    }

    /// The thread: polls until stopped, then closes the wake pipe.
    func run() {
        while let (ids, entries, timeout) = snapshot() {
            var polled = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)] + entries
            let count = poll(&polled, nfds_t(polled.count), timeout)
            if count < 0 && errno != EINTR { usleep(1000) }
            if polled[0].revents != 0 { drainWake() }
            var finished: [(UInt64, ReadinessWatch.Outcome)] = []
            for (index, id) in ids.enumerated() where polled[index + 1].revents != 0 {
                finished.append((id, .ready))
            }
            let now = Deadline.now
            let ended = state.withLock { state in
                for (id, waiter) in state.waiters {
                    if let deadline = waiter.deadline, deadline <= now,
                        !finished.contains(where: { $0.0 == id })
                    {
                        finished.append((id, .timedOut))
                    }
                }
                return finished.compactMap { id, outcome in
                    state.waiters.removeValue(forKey: id).map { ($0, outcome) }
                }
            }
            for (waiter, outcome) in ended { waiter.continuation.resume(returning: outcome) }
        }
        closeWake()
    }

    /// The waiters to poll and the wait until the nearest deadline (-1: none); nil once stopped.
    private func snapshot() -> ([UInt64], [pollfd], Int32)? {
        state.withLock { state in
            guard !state.stopped else { return nil }
            let waiters = state.waiters.sorted { $0.key < $1.key }
            let deadlines = waiters.compactMap(\.value.deadline)
            let timeout = deadlines.min().map(\.remaining) ?? -1
            return (
                waiters.map(\.key),
                waiters.map {
                    pollfd(fd: $0.value.descriptor, events: $0.value.events, revents: 0)
                },
                timeout
            )
        }
    }

    private func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }
}
