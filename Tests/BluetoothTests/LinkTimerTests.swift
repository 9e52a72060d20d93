import Link
import Synchronization
import Testing

@testable import Bluetooth

/// The links' timer: a tick at each deadline the owner gives, at once when woken (a deadline
/// set earlier meanwhile), none while there is no deadline and no wake, and no more once the
/// owner is gone or the task cancelled.
@Suite struct LinkTimerTests {
    final class Owner: Sendable {
        let ticks = Mutex(0)
        let deadline = Mutex<LinkInstant?>(nil)
        let gone = Mutex(false)
        let ticked: AsyncStream<Int>
        private let tell: AsyncStream<Int>.Continuation

        init() { (ticked, tell) = AsyncStream.makeStream(bufferingPolicy: .unbounded) }

        func tick() -> LinkInstant?? {
            if gone.withLock({ $0 }) { return nil }
            let count = ticks.withLock {
                $0 += 1; return $0
            }
            tell.yield(count)
            return .some(deadline.withLock { $0 })
        }
    }

    @Test func aWakeTicksAtOnceAndADeadlineTicksWhenDue() async {
        let timer = LinkTimer()
        let owner = Owner()
        let running = timer.run { owner.tick() }
        defer { running.cancel() }
        var ticked = owner.ticked.makeAsyncIterator()
        #expect(await ticked.next() == 1)  // the first look, at once
        // No deadline: asleep until woken (however long it would otherwise wait).
        timer.wake()
        #expect(await ticked.next() == 2)
        // A deadline 20 ms away: a tick comes without a wake.
        owner.deadline.withLock { $0 = LinkInstant(milliseconds: linkNow().milliseconds + 20) }
        timer.wake()
        #expect(await ticked.next() == 3)
        #expect(await ticked.next() == 4)
    }

    @Test func theRunEndsWhenItsOwnerIsGoneOrItIsCancelled() async {
        let owner = Owner()
        owner.gone.withLock { $0 = true }
        await LinkTimer().run { owner.tick() }.value
        #expect(owner.ticks.withLock { $0 } == 0)

        let sleeping = Owner()
        let timer = LinkTimer()
        let running = timer.run { sleeping.tick() }
        var ticked = sleeping.ticked.makeAsyncIterator()
        #expect(await ticked.next() == 1)
        running.cancel()  // asleep with no deadline: the cancellation wakes it, and it ends
        await running.value
    }
}
