import Foundation
import Hummingbird
import HummingbirdTesting
import NodeAPI
import NodeKit
import NodeTestSupport
import PaymentCodes
import Tender
import TenderTestSupport
import Testing

/// Payments the node makes on its own through the API: refused without limits, prepared under
/// them, exported (the bytes Bob takes), cancelled (limit released), a receipt recorded.
@Suite struct AutomaticPaymentAPITests {
    let node = Node()
    var world: World { node.world }
    static let token = String(repeating: "5", count: 64)
    static let authorized: HTTPFields = [.authorization: "Bearer \(token)"]

    func application(
        _ alice: Wallet, limits: [SpendingLimit]?, units: Denominations = Denominations(),
        others: [Wallet] = []
    ) -> some ApplicationProtocol {
        let context = NodeAPIContext(
            wallets: { NodeWallets(home: alice, others: others) }, clock: node.clock,
            state: NodeState(startedAt: node.clock.now()), feed: PaymentFeed(),
            token: Self.token,
            payer: limits.map { AutomaticPayer(key: world.aliceKey, limits: $0) },
            denominations: { _ in units }, syncNow: {})
        return Application(router: APIRouter.make(context))
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func post(
        _ client: some TestClientProtocol, _ uri: String, _ body: String = ""
    ) async throws -> TestResponse {
        try await client.execute(
            uri: uri, method: .post, headers: authorized, body: ByteBuffer(string: body))
    }

    @Test func withoutLimitsTheNodePaysNothingOnItsOwn() async throws {
        let alice = try node.fundedAlice([1000])
        let bob = world.bob.checksummed
        try await application(alice, limits: nil).test(.router) { client in
            let response = try await Self.post(
                client, "/api/payments", "{\"to\": \"\(bob)\", \"amount\": \"10\"}")
            #expect(response.status == .forbidden)
            #expect(try Self.json(response)["error"] as? String == "over-limit")
            #expect((try Self.json(response)["reason"] as? String)?.contains("[[limits]]") == true)
            let unauthorized = try await client.execute(uri: "/api/payments", method: .post)
            #expect(unauthorized.status == .unauthorized)
        }
        #expect(try alice.outgoingPayments().isEmpty)
    }

    @Test func aPaymentTheWalletCannotCoverSaysSoInTheCoinsUnits() async throws {
        let alice = try node.fundedAlice([1000])
        let bob = world.bob.checksummed
        let limits = [SpendingLimit(payee: nil, asset: .zero, amount: 100_000, period: 86_400)]
        let units = Denominations(nativeCoin: try Denomination(symbol: "DEV", decimals: 2))
        try await application(alice, limits: limits, units: units).test(.router) { client in
            let refused = try await Self.post(
                client, "/api/payments", "{\"to\": \"\(bob)\", \"amount\": \"5000\"}")
            #expect(refused.status == .unprocessableContent)
            let answer = try Self.json(refused)
            #expect(answer["error"] as? String == "insufficient-funds")
            #expect(
                (answer["reason"] as? String)?.contains(
                    "insufficient funds: need 50.00 DEV, spendable 10.00 DEV") == true,
                "\(answer)")
        }
        #expect(try alice.outgoingPayments().isEmpty)
    }

    /// Home falls short while another vault holds enough: the refusal says what is held
    /// there, and that the node pays on its own from home only (where its limits count).
    @Test func aShortfallAtHomeNamesWhatIsHeldInOtherVaults() async throws {
        let alice = try node.fundedAlice([1000])
        let elsewhere = World(
            domain: Domain(
                chainID: 31337, vault: try Address("0x30c2Ae6d1bc8D5e1A3e1B0c8d5a2e7f4B9c0d1e2")))
        let other = try Wallet.create(
            at: try TemporaryDirectory("tender-node").file("wallet.sqlite"), address: world.alice,
            domain: elsewhere.domain)
        try other.trust(elsewhere.issuer, now: node.clock.now())
        let payment = elsewhere.payment(
            ProofBundle(notes: [elsewhere.note(7000)]), to: world.alice, amount: 7000,
            requestID: try Bytes32([UInt8](repeating: 0xEF, count: 32)))
        _ = try other.receive(
            Envelope(domain: elsewhere.domain, message: .payment(payment)).encoded(),
            key: world.aliceKey, now: node.clock.now())
        let (bob, vault) = (world.bob.checksummed, elsewhere.domain.vault)
        let limits = [SpendingLimit(payee: nil, asset: .zero, amount: 100_000, period: 86_400)]
        try await application(alice, limits: limits, others: [other]).test(.router) { client in
            let refused = try await Self.post(
                client, "/api/payments", "{\"to\": \"\(bob)\", \"amount\": \"5000\"}")
            #expect(refused.status == .unprocessableContent)
            let reason = try #require(try Self.json(refused)["reason"] as? String)
            #expect(reason.contains("insufficient funds"), "\(reason)")
            #expect(
                reason.contains(
                    "held in other vaults: 7000 base units (native coin) on chain 31337, vault \(vault)"
                ), "\(reason)")
            #expect(reason.contains("from its home vault only"), "\(reason)")
        }
        #expect(try alice.outgoingPayments().isEmpty && other.outgoingPayments().isEmpty)
    }

    @Test func aRequestPaidUnderTheLimitExportedAndItsReceiptRecorded() async throws {
        let alice = try node.fundedAlice([600, 600])
        let bobWallet = try node.wallet(world.bobKey)
        let now = node.clock.now()
        let request = try bobWallet.issueRequest(
            amount: 400, asset: .zero, memo: "flour", lifetime: 600, now: now)
        let uri = TenderURI.encode(request)
        let limits = [SpendingLimit(payee: world.bob, asset: .zero, amount: 900, period: 86_400)]
        let (bobKey, clock, bob) = (world.bobKey, node.clock, world.bob.checksummed)
        try await application(alice, limits: limits).test(.router) { client in
            let made = try await Self.post(client, "/api/payments", "{\"request\": \"\(uri)\"}")
            #expect(made.status == .created)
            let payment = try #require(try Self.json(made)["payment"] as? [String: Any])
            #expect(payment["state"] as? String == "prepared")
            #expect(payment["amount"] as? String == "400")
            #expect(payment["memo"] as? String == "flour")
            let id = try #require(payment["requestId"] as? String)
            #expect(id == request.id.hex)

            let limitsNow = try Self.json(
                try await client.execute(uri: "/api/limits", method: .get, headers: Self.authorized)
            )
            let first = try #require((limitsNow["limits"] as? [[String: Any]])?.first)
            #expect(first["used"] as? String == "400")
            #expect(first["remaining"] as? String == "500")

            // The same request again: already paid.
            let again = try await Self.post(client, "/api/payments", "{\"request\": \"\(uri)\"}")
            #expect(again.status == .conflict)
            // Past the limit: 403 with the numbers, nothing recorded.
            let over = try await Self.post(
                client, "/api/payments",
                "{\"to\": \"\(bob)\", \"amount\": \"550\"}")
            #expect(over.status == .forbidden)
            // In the API's units (this asset has no denomination: base units).
            #expect(
                (try Self.json(over)["reason"] as? String)?.contains(
                    "paying 550 base units would exceed the limit of 900 base units")
                    == true)
            #expect(
                (try Self.json(over)["reason"] as? String)?.contains(
                    "(400 base units used, 500 base units left)") == true)
            // Past the limit and past what the wallet holds: the limit is what it is refused by
            // (more coins would not make it payable).
            let beyond = try await Self.post(
                client, "/api/payments", "{\"to\": \"\(bob)\", \"amount\": \"99999999\"}")
            #expect(beyond.status == .forbidden)
            #expect(try Self.json(beyond)["error"] as? String == "over-limit")

            let exported = try await Self.post(client, "/api/payments/\(id)/export")
            #expect(exported.status == .ok)
            #expect(exported.headers[.contentType] == "application/octet-stream")
            let received = try bobWallet.receive(
                Array(buffer: exported.body), key: bobKey, now: clock.now())
            #expect(received.amount == 400)
            // Out of the node: no longer cancellable.
            let cancel = try await Self.post(client, "/api/payments/\(id)/cancel")
            #expect(cancel.status == .unprocessableContent)
            var body = ByteBuffer()
            body.writeBytes(received.receipt)
            let spent = try await client.execute(
                uri: "/api/payments/\(id)/receipt", method: .post, headers: Self.authorized,
                body: body)
            #expect(spent.status == .ok)
            #expect(
                (try Self.json(spent)["payment"] as? [String: Any])?["state"] as? String == "spent")
        }
        #expect(try alice.outgoingPayment(request.id).state == .spent)
    }

    @Test func aCancelledPaymentGivesItsLimitBack() async throws {
        let alice = try node.fundedAlice([300, 300])
        let limits = [SpendingLimit(payee: nil, asset: .zero, amount: 300, period: 3600)]
        let bob = world.bob.checksummed
        try await application(alice, limits: limits).test(.router) { client in
            let terms = "{\"to\": \"\(bob)\", \"amount\": \"300\", \"memo\": \"eggs\"}"
            let made = try await Self.post(client, "/api/payments", terms)
            #expect(made.status == .created)
            let id = try #require(
                (try Self.json(made)["payment"] as? [String: Any])?["requestId"] as? String)
            #expect(try await Self.post(client, "/api/payments", terms).status == .forbidden)
            let cancelled = try await Self.post(client, "/api/payments/\(id)/cancel")
            #expect(cancelled.status == .ok)
            #expect(
                (try Self.json(cancelled)["payment"] as? [String: Any])?["state"] as? String
                    == "cancelled")
            #expect(try await Self.post(client, "/api/payments", terms).status == .created)
            for (body, reason) in [
                ("{\"amount\": \"5\"}", "send request, or to and amount"),
                ("{\"to\": \"\(bob)\", \"amount\": \"-1\"}", "positive integer"),
                ("{\"to\": \"0x12\", \"amount\": \"5\"}", "address"),
                ("{\"request\": \"tender:nonsense\", \"amount\": \"5\"}", "send request alone"),
                ("{\"request\": \"bitcoin:abc\"}", "request:"),
            ] {
                let response = try await Self.post(client, "/api/payments", body)
                #expect(response.status == .badRequest, "\(body)")
                #expect((try Self.json(response)["reason"] as? String)?.contains(reason) == true)
            }
            let unknown = try await Self.post(
                client, "/api/payments/\(String(repeating: "ab", count: 32))/cancel")
            #expect(unknown.status == .notFound)
            #expect(try await Self.post(client, "/api/payments/xyz/export").status == .badRequest)
        }
    }
}
