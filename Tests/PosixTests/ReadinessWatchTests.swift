import Glibc
import Posix
import Testing

/// Waits on real descriptors (a Unix socket pair): readiness, deadlines, cancellation and a
/// descriptor forgotten before it is closed.
@Suite struct ReadinessWatchTests {
    /// Runs `body` with a connected pair of non-blocking datagram sockets, closed after.
    func withPair(_ body: (Int32, Int32) async throws -> Void) async throws {
        let (a, b) = try pair()
        defer {
            close(a)
            close(b)
        }
        try await body(a, b)
    }

    /// A connected pair of non-blocking datagram sockets.
    func pair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        let made = socketpair(
            AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &ends)
        try #require(made == 0)
        return (ends[0], ends[1])
    }

    @Test func aWaitEndsWhenTheDescriptorBecomesReadable() async throws {
        let watch = try ReadinessWatch()
        try await withPair { a, b in
            let waiting = Task { await watch.wait(a, for: .readable) }
            var byte: UInt8 = 7
            #expect(write(b, &byte, 1) == 1)
            #expect(await waiting.value == .ready)
            // Ready already: the wait ends at once.
            #expect(await watch.wait(a, for: .readable, timeout: .seconds(600)) == .ready)
            #expect(await watch.wait(b, for: .writable) == .ready)
        }
    }

    @Test func aWaitEndsAtItsDeadlineWhenNothingComes() async throws {
        let watch = try ReadinessWatch()
        try await withPair { a, _ in
            #expect(await watch.wait(a, for: .readable, timeout: .milliseconds(50)) == .timedOut)
        }
    }

    @Test func aCancelledWaitEnds() async throws {
        let watch = try ReadinessWatch()
        try await withPair { a, _ in
            let waiting = Task { await watch.wait(a, for: .readable) }
            waiting.cancel()
            #expect(await waiting.value == .cancelled)
        }
    }

    @Test func forgettingADescriptorEndsItsWaitsAndNotOthers() async throws {
        let watch = try ReadinessWatch()
        let (a, b) = try pair()
        let (c, d) = try pair()
        defer {
            for end in [b, c, d] { close(end) }
        }
        let forgotten = Task { await watch.wait(a, for: .readable) }
        let other = Task { await watch.wait(c, for: .readable) }
        let deadline = ContinuousClock.now + .seconds(600)
        while watch.pendingWaits < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        watch.forget(a)
        close(a)
        #expect(await forgotten.value == .closed)
        #expect(watch.pendingWaits == 1)
        var byte: UInt8 = 1
        #expect(write(d, &byte, 1) == 1)
        #expect(await other.value == .ready)
    }
}
