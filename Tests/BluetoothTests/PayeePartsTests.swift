import Noise
import PaymentSession
import Testing

@testable import Bluetooth

/// The payee's queue of offered payments, in process: one payment at a time to the exchange,
/// each answer to the link its payment came on.
@Suite struct PaymentQueueTests {
    /// The queue inside an actor, as the payee keeps it.
    actor Holder {
        var queue = PaymentQueue()
        func offer(_ payment: [UInt8], on link: UInt32) { queue.offer(payment, on: link) }
        func next() async -> [UInt8]? { await withCheckedContinuation { queue.next($0) } }
        func answering() -> UInt32? { queue.answering() }
        func drop(_ link: UInt32) { queue.drop(link) }
        func finish() { queue.finish() }
        var waiting: Bool { queue.isWaiting }
    }

    @Test func paymentsGoOneAtATimeAndEachAnswerToItsLink() async {
        let holder = Holder()
        await holder.offer([1], on: 10)
        await holder.offer([2], on: 20)
        #expect(await holder.next() == [1])
        #expect(await holder.answering() == 10)
        #expect(await holder.answering() == nil)
        #expect(await holder.next() == [2])
        #expect(await holder.answering() == 20)
    }

    @Test func aWaitingExchangeGetsThePaymentThatComesAndAnEndedLinksPaymentsGo() async {
        let holder = Holder()
        await holder.offer([1], on: 10)
        await holder.drop(10)
        let waiting = Task { await holder.next() }
        while await !holder.waiting { await Task.yield() }
        await holder.offer([3], on: 30)
        #expect(await waiting.value == [3])
        #expect(await holder.answering() == 30)
    }

    @Test func finishingEndsTheWaitAndRefusesWhatComesAfter() async {
        let holder = Holder()
        let waiting = Task { await holder.next() }
        while await !holder.waiting { await Task.yield() }
        await holder.finish()
        #expect(await waiting.value == nil)
        await holder.offer([4], on: 40)
        #expect(await holder.next() == nil)
    }
}

/// The payee's sessions, in process against a real payer session: a session per link,
/// opened by its first message, a refused message leaving the link to be ended.
@Suite struct PayeeSessionsTests {
    let payeeKey = NoisePrivateKey()
    let hello = Hello(request: [0xA1], evidence: [])

    @Test func eachLinkHasItsOwnSessionAndAnswersGoToIt() throws {
        var sessions = PayeeSessions(staticKey: payeeKey)
        var first = try PayerSession(maxMessageBytes: 1 << 20)
        var second = try PayerSession(maxMessageBytes: 1 << 20)
        let opening = [(UInt32(1), try first.open()), (UInt32(2), try second.open())]
        var replies: [UInt32: [UInt8]] = [:]
        for (link, message) in opening {
            guard case .reply(let reply) = try sessions.receive(message, on: link, hello: { hello })
            else {
                Issue.record("the first message of link \(link) is answered with the hello")
                return
            }
            replies[link] = reply
        }
        #expect(Set(sessions.links) == [1, 2])
        // Each reply opens only its own payer's session.
        #expect(try first.receive(try #require(replies[1])) == .hello(hello))
        var crossed = false
        do { _ = try second.receive(try #require(replies[1])) } catch { crossed = true }
        #expect(crossed)
        #expect(try sessions.answer(Answer(.receipt([1])), on: 3) == nil)
        let ended = (sessions.end(2), sessions.end(2))
        #expect(ended == (true, false))
        #expect(sessions.links == [1])
    }

    @Test func aMessageTheSessionRefusesThrowsAndTheLinkIsToBeEnded() throws {
        var sessions = PayeeSessions(staticKey: payeeKey)
        var refused = false
        do { _ = try sessions.receive([0xFF, 0x00, 0x01], on: 7, hello: { hello }) } catch {
            refused = true
        }
        #expect(refused)
        #expect(sessions.contains(7))
        let ended = sessions.end(7)
        #expect(ended)
    }
}
