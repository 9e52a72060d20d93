import Foundation
import Hummingbird
import HummingbirdTesting
import NodeAPI
import NodeKit
import NodeTestSupport
import QR
import Synchronization
import Tender
import TenderTestSupport
import Testing

/// The node's HTTP API through Hummingbird's router (every route, the token, the answers'
/// JSON), on Bob's real wallet; Alice pays the requests it issues.
@Suite struct NodeAPITests {
    let node = Node()
    var world: World { node.world }
    static let token = String(repeating: "7", count: 64)

    func application(_ bob: Wallet, syncs: Counter = Counter()) -> some ApplicationProtocol {
        let context = NodeAPIContext(
            wallets: { NodeWallets(home: bob) }, clock: node.clock,
            state: NodeState(startedAt: node.clock.now() - 5), feed: PaymentFeed(),
            token: Self.token, syncNow: { syncs.add() })
        return Application(router: APIRouter.make(context))
    }

    static let authorized: HTTPFields = [.authorization: "Bearer \(token)"]

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test func everyAPICallNeedsTheToken() async throws {
        let bob = try node.wallet(world.bobKey)
        let bobAddress = world.bob.checksummed
        try await application(bob).test(.router) { client in
            for headers: HTTPFields in [
                [:], [.authorization: "Bearer wrong"], [.authorization: Self.token],
                [.authorization: "Bearer \(Self.token)x"], [.authorization: "Basic \(Self.token)"],
                [.authorization: "Bearer  \(Self.token)"], [.authorization: "Bear"],
            ] {
                for (uri, method) in [
                    ("/api/status", HTTPRequest.Method.get), ("/api/balance", .get),
                    ("/api/payments", .get), ("/api/evidence", .get), ("/api/requests", .post),
                    ("/api/sync", .post), ("/api/events", .get),
                ] {
                    let response = try await client.execute(
                        uri: uri, method: method, headers: headers)
                    #expect(response.status == .unauthorized, "\(uri) with \(headers)")
                    #expect(try Self.json(response)["error"] as? String == "unauthorized")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"tender\"")
                }
            }
            // The scheme's case is free (RFC 9110 §11.1), the token's is not.
            for scheme in ["bearer", "BEARER"] {
                let answer = try await client.execute(
                    uri: "/api/status", method: .get,
                    headers: [.authorization: "\(scheme) \(Self.token)"])
                #expect(answer.status == .ok, "\(scheme)")
            }
            let status = try await client.execute(
                uri: "/api/status", method: .get, headers: Self.authorized)
            #expect(status.status == .ok)
            #expect(try Self.json(status)["address"] as? String == bobAddress)
            #expect(try Self.json(status)["uptimeSeconds"] as? Int == 5)
            // The liveness probe says nothing and needs nothing.
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok && String(buffer: health.body) == "ok\n")
        }
    }

    @Test func amountsComeInBaseUnitsWithHowPeopleReadThem() async throws {
        let bob = try node.wallet(world.bobKey)
        let dev = try Denomination(symbol: "DEV", decimals: 2)
        let context = NodeAPIContext(
            wallets: { NodeWallets(home: bob) }, clock: node.clock,
            state: NodeState(startedAt: node.clock.now()), feed: PaymentFeed(),
            token: Self.token, denominations: { _ in Denominations(nativeCoin: dev) },
            syncNow: {})
        try await Application(router: APIRouter.make(context)).test(.router) { client in
            // What the point-of-sale page charges in.
            let status = try Self.json(
                try await client.execute(uri: "/api/status", method: .get, headers: Self.authorized)
            )
            let charge = try #require(status["charge"] as? [String: Any])
            #expect(charge["symbol"] as? String == "DEV" && charge["decimals"] as? Int == 2)
            #expect(charge["asset"] as? String == Address.zero.checksummed)
            // A request: base units in, base units and the display out.
            let made = try Self.json(
                try await client.execute(
                    uri: "/api/requests", method: .post, headers: Self.authorized,
                    body: ByteBuffer(string: "{\"amount\": \"250\"}")))
            #expect(made["amount"] as? String == "250" && made["display"] as? String == "2.50 DEV")
            let id = try #require(made["requestId"] as? String)
            let read = try Self.json(
                try await client.execute(
                    uri: "/api/requests/\(id)", method: .get, headers: Self.authorized))
            #expect(read["display"] as? String == "2.50 DEV")
        }
        // Without a symbol the node says base units, and gives none.
        try await application(bob).test(.router) { client in
            let status = try Self.json(
                try await client.execute(uri: "/api/status", method: .get, headers: Self.authorized)
            )
            let charge = try #require(status["charge"] as? [String: Any])
            #expect(charge["symbol"] == nil && charge["decimals"] == nil)
        }
    }

    @Test func aBodyThatIsNotTheJSONExpectedIs400WithTheReason() async throws {
        let bob = try node.wallet(world.bobKey)
        try await application(bob).test(.router) { client in
            for (body, reason) in [
                ("{\"amount\": 25", "not valid JSON"),
                ("{\"amount\": 25}", "\"amount\" must be a string"),
                ("{}", "missing \"amount\""), ("{\"amount\": \"0\"}", "positive integer"),
                ("{\"amount\": \"12.5\"}", "positive integer"),
                ("{\"amount\": \"5\", \"asset\": \"0x12\"}", "asset"),
                ("{\"amount\": \"5\", \"expiresIn\": 0}", "expiresIn"),
                ("[1, 2]", "not the JSON expected"),
                // A typo would leave its field at the default, unsaid.
                (
                    "{\"amount\": \"5\", \"expires_in\": 60}",
                    "unknown field \"expires_in\" (the body takes amount, asset, memo, expiresIn)"
                ),
            ] {
                let response = try await client.execute(
                    uri: "/api/requests", method: .post, headers: Self.authorized,
                    body: ByteBuffer(string: body))
                #expect(response.status == .badRequest, "\(body)")
                let answer = try Self.json(response)
                #expect(answer["error"] as? String == "bad-request")
                #expect((answer["reason"] as? String ?? "").contains(reason), "\(body): \(answer)")
            }
            #expect(try bob.incomingPayments().isEmpty)
            // Over the upload cap: 413, with the reason as every other error has one.
            let large = try await client.execute(
                uri: "/api/requests", method: .post, headers: Self.authorized,
                body: ByteBuffer(string: String(repeating: " ", count: 70_000)))
            #expect(large.status == .contentTooLarge)
            #expect(try Self.json(large)["error"] as? String == "too-large")
            #expect(try Self.json(large)["reason"] as? String == "the body is over 64 KiB")
        }
    }

    @Test func aRequestWaitsThenIsPaidAndThePaymentShowsEverywhere() async throws {
        let bob = try node.wallet(world.bobKey)
        let alice = try node.fundedAlice([3000])
        let syncs = Counter()
        let (clock, bobAddress, aliceAddress) = (node.clock, world.bob, world.alice)
        let (aliceKey, bobKey) = (world.aliceKey, world.bobKey)
        try await application(bob, syncs: syncs).test(.router) { client in
            let created = try await client.execute(
                uri: "/api/requests", method: .post, headers: Self.authorized,
                body: ByteBuffer(string: #"{"amount": "2500", "memo": "tea", "expiresIn": 600}"#))
            #expect(created.status == .created)
            let request = try Self.json(created)
            #expect(request["state"] as? String == "waiting")
            #expect(request["amount"] as? String == "2500")
            let id = try #require(request["requestId"] as? String)
            #expect(
                (request["uri"] as? String)?.hasPrefix("tender:\(bobAddress.checksummed)") == true)

            // Alice pays it (the wallet's own exchange, straight to Bob's wallet).
            let exchange = PaymentExchange(wallet: alice, clock: clock)
            _ = try await exchange.pay(
                PaymentExchange.Order(
                    payee: bobAddress, amount: 2500, asset: .zero, memo: "tea",
                    requestID: try Bytes32(hex: id)),
                key: aliceKey, via: MemoryTransport(payee: bob, key: bobKey, clock: clock),
                receiptTimeout: .generousWait)

            let paid = try Self.json(
                try await client.execute(
                    uri: "/api/requests/\(id)", method: .get, headers: Self.authorized))
            #expect(paid["state"] as? String == "paid")
            let payment = try #require(paid["payment"] as? [String: Any])
            #expect(payment["payer"] as? String == aliceAddress.checksummed)
            #expect(payment["amount"] as? String == "2500")

            let payments = try Self.json(
                try await client.execute(
                    uri: "/api/payments", method: .get, headers: Self.authorized))
            #expect(
                (payments["incoming"] as? [[String: Any]])?.map { $0["requestId"] as? String } == [
                    id
                ])
            let balance = try Self.json(
                try await client.execute(
                    uri: "/api/balance", method: .get, headers: Self.authorized))
            let domains = try #require(balance["domains"] as? [[String: Any]])
            let assets = try #require(domains.first?["assets"] as? [[String: Any]])
            #expect(assets.first?["receivedUnsettled"] as? String == "2500")

            let unknown = try await client.execute(
                uri: "/api/requests/0x" + String(repeating: "ab", count: 32), method: .get,
                headers: Self.authorized)
            #expect(unknown.status == .notFound)
            let malformed = try await client.execute(
                uri: "/api/requests/tea", method: .get, headers: Self.authorized)
            #expect(malformed.status == .badRequest)
            // No such endpoint, or not that method: the API's JSON error all the same.
            let nowhere = try await client.execute(
                uri: "/api/balances", method: .get, headers: Self.authorized)
            #expect(nowhere.status == .notFound)
            #expect(try Self.json(nowhere)["error"] as? String == "not-found")
            #expect(
                (try Self.json(nowhere)["reason"] as? String)?.contains(
                    "no endpoint answers GET /api/balances") == true)
            let wrongMethod = try await client.execute(
                uri: "/api/balance", method: .delete, headers: Self.authorized)
            #expect(wrongMethod.status == .notFound)
            #expect(
                (try Self.json(wrongMethod)["reason"] as? String)?.contains(
                    "no endpoint answers DELETE /api/balance") == true)

            let sync = try await client.execute(
                uri: "/api/sync", method: .post, headers: Self.authorized)
            #expect(sync.status == .ok)
            #expect(syncs.value == 1)
        }
    }

    /// The receipt of a payment the node accepted, for a payer who paid through a camera: the
    /// envelope as stored, and a code (real libqrencode) that real zbar reads back to it.
    @Test func theReceiptOfAnAcceptedPaymentIsServedAsTheEnvelopeAndAsACode() async throws {
        let bob = try node.wallet(world.bobKey)
        let alice = try node.fundedAlice([3000])
        let (clock, bobAddress, aliceKey, bobKey) = (
            node.clock, world.bob, world.aliceKey, world.bobKey
        )
        let id = node.requestID(7)
        _ = try await PaymentExchange(wallet: alice, clock: clock).pay(
            PaymentExchange.Order(
                payee: bobAddress, amount: 1200, asset: .zero, memo: "", requestID: id),
            key: aliceKey, via: MemoryTransport(payee: bob, key: bobKey, clock: clock),
            receiptTimeout: .generousWait)
        let stored = try #require(try bob.incomingPayment(id)).receipt
        let unpaidID = node.requestID(8)
        try await application(bob).test(.router) { client in
            let envelope = try await client.execute(
                uri: "/api/receipts/\(id.hex)", method: .get, headers: Self.authorized)
            #expect(envelope.status == .ok)
            #expect(envelope.headers[.contentType] == "application/octet-stream")
            #expect(Array(buffer: envelope.body) == stored)
            let png = try await client.execute(
                uri: "/api/receipts/\(id.hex)/qr.png", method: .get, headers: Self.authorized)
            #expect(png.headers[.contentType] == "image/png")
            #expect(QRScanner().scan(try PNG.decode(Array(buffer: png.body))) == [stored])
            let svg = try await client.execute(
                uri: "/api/receipts/\(id.hex)/qr.svg", method: .get, headers: Self.authorized)
            #expect(svg.status == .ok && svg.headers[.contentType] == "image/svg+xml")
            #expect(String(buffer: svg.body).contains("<svg"))

            let unpaid = try await client.execute(
                uri: "/api/receipts/\(unpaidID.hex)", method: .get,
                headers: Self.authorized)
            #expect(unpaid.status == .notFound)
            #expect(String(buffer: unpaid.body).contains("no payment accepted for request"))
            let malformed = try await client.execute(
                uri: "/api/receipts/tea/qr.svg", method: .get, headers: Self.authorized)
            #expect(malformed.status == .badRequest)
            let anonymous = try await client.execute(
                uri: "/api/receipts/\(id.hex)", method: .get)
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func theFeedAnnouncesEachPaymentOnceWhicheverProcessTookIt() async throws {
        let bob = try node.wallet(world.bobKey)
        let alice = try node.fundedAlice([3000])
        let feed = PaymentFeed()
        #expect(try await feed.poll([bob]) == 0)  // the first reading learns what is there
        let exchange = PaymentExchange(wallet: alice, clock: node.clock)
        _ = try await exchange.pay(
            node.order(to: world.bob, 1200, id: 7), key: world.aliceKey,
            via: MemoryTransport(payee: bob, key: world.bobKey, clock: node.clock),
            receiptTimeout: .generousWait)
        #expect(try await feed.poll([bob]) == 1)
        #expect(try await feed.poll([bob]) == 0)
    }
}
