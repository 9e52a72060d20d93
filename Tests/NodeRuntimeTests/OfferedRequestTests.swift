import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NodeAPI
import NodeKit
import NodeRuntime
import Tender
import TenderTestSupport
import Testing

/// A clock's waits the test lets pass: each wait is announced with its length and returns
/// when the test says its time has come (or its task is cancelled).
final class TestTimer: Sendable {
    struct Wait: Sendable {
        let duration: Duration
        let over: AsyncStream<Void>.Continuation

        func elapse() { over.finish() }
    }

    let waits: AsyncStream<Wait>
    private let announce: AsyncStream<Wait>.Continuation

    init() { (waits, announce) = AsyncStream.makeStream() }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [announce] duration in
            let (over, finish) = AsyncStream.makeStream(of: Void.self)
            announce.yield(Wait(duration: duration, over: finish))
            for await _ in over {}
            try Task.checkCancellation()
        }
    }
}

@Suite struct OfferedRequestTests {
    let world = World()

    func request(_ id: UInt8, lifetime: UInt64) throws -> PaymentRequest {
        try PaymentRequest(
            id: try Bytes32([UInt8](repeating: id, count: 32)), payee: world.bob,
            amount: 500, asset: .zero, expiry: world.now + lifetime, domain: world.domain)
    }

    @Test func aRequestIsWithdrawnWhenItExpiresAndNotWhenAnotherWasOfferedSince() async throws {
        let timer = TestTimer()
        let offered = OfferedRequest(clock: FixedClock(world.now), sleep: timer.sleep)
        var changes = await offered.listen(sessionKey: [7]).makeAsyncIterator()
        var waits = timer.waits.makeAsyncIterator()
        let first = try request(1, lifetime: 60)
        await offered.issued(first)
        #expect(await changes.next() == .offer(first))
        let wait = try #require(await waits.next())
        #expect(wait.duration == .seconds(60))
        wait.elapse()
        #expect(await changes.next() == .withdraw(first.id, because: .expired))
        #expect(await offered.current == nil)

        // A request paid is withdrawn at once; its timer then withdraws nothing.
        let second = try request(2, lifetime: 30)
        await offered.issued(second)
        #expect(await changes.next() == .offer(second))
        #expect(await waits.next()?.duration == .seconds(30))
        await offered.paid(second.id)
        #expect(await changes.next() == .withdraw(second.id, because: .paid))
        let third = try request(3, lifetime: 90)
        await offered.issued(third)
        #expect(await changes.next() == .offer(third))
        #expect(await offered.current == third)
        await offered.close()
        #expect(await changes.next() == nil)
    }

    @Test func aRequestIssuedWhileNothingListensIsOfferedNowhere() async throws {
        let offered = OfferedRequest(clock: FixedClock(world.now))
        await offered.issued(try request(1, lifetime: 60))
        #expect(await offered.current == nil)
        #expect(await offered.sessionKey() == nil)
    }
}

/// While the Bluetooth payee listens, each request the API issues goes to it and carries its
/// session key (a payer scanning the code opens the session in one round trip); before and
/// after, requests carry none and go nowhere.
@Suite struct RequestsOnTheAirTests {
    static let token = "test-token-0123456789abcdef0123456789abcdef"
    static var authorized: HTTPFields { [.authorization: "Bearer \(token)"] }

    @Test func requestsGoToTheAirWithTheSessionKeyOnlyWhileAPayeeListens() async throws {
        let home = try RuntimeHome()
        let wallet = try home.home()
        let clock = FixedClock(home.world.now)
        let offered = OfferedRequest(clock: clock)
        let context = NodeAPIContext(
            wallets: { NodeWallets(home: wallet) }, clock: clock,
            state: NodeState(startedAt: clock.now()), feed: PaymentFeed(),
            token: Self.token, offers: offered, syncNow: {})
        let sessionKey = [UInt8](repeating: 0x42, count: 32)
        try await Application(router: APIRouter.make(context)).test(.router) { client in
            func charge(_ amount: String) async throws -> (id: String, uri: String) {
                let response = try await client.execute(
                    uri: "/api/requests", method: .post, headers: Self.authorized,
                    body: ByteBuffer(string: #"{"amount": "\#(amount)"}"#))
                let created = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: response.body))
                        as? [String: Any])
                return (
                    try #require(created["requestId"] as? String),
                    try #require(created["uri"] as? String)
                )
            }
            #expect(!(try await charge("100").uri.contains("&k=")))
            var changes = await offered.listen(sessionKey: sessionKey).makeAsyncIterator()
            let charged = try await charge("200")
            #expect(charged.uri.contains("&k=" + String(repeating: "42", count: 32)))
            // Read back (and drawn as a code), the request carries the key too.
            let response = try await client.execute(
                uri: "/api/requests/\(charged.id)", method: .get, headers: Self.authorized)
            let status = try #require(
                try JSONSerialization.jsonObject(with: Data(buffer: response.body))
                    as? [String: Any])
            #expect(status["uri"] as? String == charged.uri)
            guard case .offer(let received)? = await changes.next() else {
                Issue.record("the request was not offered")
                return
            }
            #expect(received.id.hex == charged.id)
            #expect(received.amount == 200)
            #expect(received.sessionKey == sessionKey)
            await offered.close()
            #expect(await changes.next() == nil)
            #expect(!(try await charge("300").uri.contains("&k=")))
        }
    }
}
