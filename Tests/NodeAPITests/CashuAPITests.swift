import Cashu
import CashuStore
import CashuTestSupport
import CashuWallet
import Codecs
import Foundation
import Hummingbird
import HummingbirdTesting
import NodeAPI
import NodeKit
import NodeTestSupport
import PaymentCodes
import Secp256k1
import Synchronization
import Tender
import Testing

/// Cashu through the node's API: a token handed in is taken offline into the Cashu wallet
/// (the same check the camera makes), refused with nothing written when forged or taken
/// before, shown in the balance and the payments, and announced once by the feed.
@Suite struct CashuAPITests {
    let node = Node()
    let mint: TestMint
    let store: CashuDatabase
    let payee: CashuPayee

    init() throws {
        mint = try TestMint()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cashu-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try CashuDatabase(path: folder.appendingPathComponent("cashu.sqlite").path)
        try store.addMint(mint.url, now: 1)
        try store.saveKeysets([mint.keyset], mint: mint.url, now: 1)
        payee = CashuPayee(
            wallet: CashuWallet(
                store: store, lockKey: try PrivateKey(bytes: Array(repeating: 5, count: 32))),
            requireLock: false, clock: node.clock, metrics: NodeMetrics())
    }

    func application(
        cashu: CashuPayee?, feed: PaymentFeed = PaymentFeed()
    ) throws
        -> some ApplicationProtocol
    {
        let bob = try node.wallet(node.world.bobKey)
        let context = NodeAPIContext(
            wallets: { NodeWallets(home: bob) }, clock: node.clock,
            state: NodeState(startedAt: node.clock.now()), feed: feed,
            token: NodeAPITests.token, cashu: cashu, syncNow: {})
        return Application(router: APIRouter.make(context))
    }

    static func post(_ text: String, json: Bool = false) -> (HTTPFields, ByteBuffer) {
        var headers = NodeAPITests.authorized
        if json {
            headers[.contentType] = "application/json"
            let body = try! JSONSerialization.data(withJSONObject: ["token": text])
            return (headers, ByteBuffer(data: body))
        }
        headers[.contentType] = "text/plain"
        return (headers, ByteBuffer(string: text))
    }

    @Test func aTokenHandedInIsTakenOnceAndShownAtRisk() async throws {
        let token = try mint.token([8, 2], memo: "two teas").encoded()
        try await application(cashu: payee).test(.router) { client in
            let (headers, body) = Self.post(token, json: true)
            try await client.execute(
                uri: "/api/cashu/tokens", method: .post, headers: headers, body: body
            ) {
                response in
                #expect(response.status == .created)
                let json = try NodeAPITests.json(response)
                #expect(json["amount"] as? String == "10")
                #expect(json["unit"] as? String == "sat")
                #expect(json["state"] as? String == "received")
                #expect(json["memo"] as? String == "two teas")
            }
            let (again, sameBody) = Self.post(token)
            try await client.execute(
                uri: "/api/cashu/tokens", method: .post, headers: again, body: sameBody
            ) {
                response in
                #expect(response.status == .conflict)
                let reason = try NodeAPITests.json(response)["reason"] as? String
                #expect(reason?.contains("taken already") == true, "\(reason ?? "")")
            }
            try await client.execute(
                uri: "/api/cashu/balance", method: .get, headers: NodeAPITests.authorized
            ) {
                response in
                let json = try NodeAPITests.json(response)
                let balances = try #require(json["balances"] as? [[String: Any]])
                #expect(balances.count == 1)
                #expect(balances.first?["atRisk"] as? String == "10")
                #expect(balances.first?["spendable"] as? String == "0")
                #expect((json["lockKey"] as? String)?.count == 66)
            }
            try await client.execute(
                uri: "/api/cashu/payments", method: .get, headers: NodeAPITests.authorized
            ) {
                response in
                let payments = try #require(
                    try NodeAPITests.json(response)["payments"] as? [[String: Any]])
                #expect(payments.map { $0["amount"] as? String } == ["10"])
            }
        }
    }

    @Test func aForgedOrUnknownTokenIsRefusedWithNothingWritten() async throws {
        let genuine = try mint.token([8])
        // The amount raised: the mint's key for 16 did not sign it.
        let forged = Token(
            mint: genuine.mint, unit: genuine.unit, memo: nil,
            proofs: genuine.proofs.map {
                Proof(
                    amount: 16, keysetID: $0.keysetID, secret: $0.secret, signature: $0.signature,
                    dleq: $0.dleq)
            })
        let other = try TestMint(seed: 2)
        let unknown = Token(
            mint: "http://other.test", unit: "sat", memo: nil, proofs: try other.token([4]).proofs)
        let attempts: [(String, HTTPResponse.Status)] = [
            (try forged.encoded(), .unprocessableContent), (try unknown.encoded(), .notFound),
            ("cashuBnotatoken", .unprocessableContent),
        ]
        try await application(cashu: payee).test(.router) { client in
            for (text, status) in attempts {
                let (headers, body) = Self.post(text)
                try await client.execute(
                    uri: "/api/cashu/tokens", method: .post, headers: headers, body: body
                ) {
                    response in
                    #expect(response.status == status, "\(text.prefix(20))")
                }
            }
        }
        #expect(try store.payments().isEmpty)
    }

    /// A node that never unlocked the wallet key takes tokens once the lock key is recorded
    /// (a Cashu command on the host, while the node runs): the wallet opens when first needed.
    @Test func theWalletOpensOnceItsLockKeyIsRecorded() async throws {
        let recorded = Mutex(false)
        let wallet = try payee.wallet()
        let lazy = CashuPayee(requireLock: false, clock: node.clock, metrics: NodeMetrics()) {
            recorded.withLock { $0 } ? wallet : nil
        }
        let (headers, body) = Self.post(try mint.token([2]).encoded())
        try await application(cashu: lazy).test(.router) { client in
            try await client.execute(
                uri: "/api/cashu/tokens", method: .post, headers: headers, body: body
            ) { response in
                #expect(response.status == .notFound)
                let reason = try NodeAPITests.json(response)["reason"] as? String
                #expect(reason?.contains("lock key is not recorded") == true, "\(reason ?? "")")
            }
            recorded.withLock { $0 = true }
            try await client.execute(
                uri: "/api/cashu/tokens", method: .post, headers: headers, body: body
            ) { response in #expect(response.status == .created) }
        }
    }

    @Test func aNodeThatTakesNoCashuSaysSo() async throws {
        let (headers, body) = Self.post(try mint.token([1]).encoded())
        try await application(cashu: nil).test(.router) { client in
            try await client.execute(
                uri: "/api/cashu/tokens", method: .post, headers: headers, body: body
            ) {
                response in
                #expect(response.status == .notFound)
                let code = try NodeAPITests.json(response)["error"] as? String
                #expect(code == "cashu-off")
            }
        }
    }

    /// NUT-18, in-band: the request names the amount, the unit and the mints the wallet holds
    /// keys of; a node that takes only locked tokens asks for a lock to its key.
    @Test func aRequestNamesTheMintsHeldAndTheLockAsked() async throws {
        let locking = CashuPayee(
            wallet: try payee.wallet(), requireLock: true, clock: node.clock, metrics: NodeMetrics()
        )
        let mintURL = mint.url
        for (cashu, locked) in [(payee, false), (locking, true)] {
            try await application(cashu: cashu).test(.router) { client in
                try await client.execute(
                    uri: "/api/cashu/request?amount=250&memo=two%20teas", method: .get,
                    headers: NodeAPITests.authorized
                ) { response in
                    #expect(response.status == .ok)
                    let json = try NodeAPITests.json(response)
                    let text = try #require(json["request"] as? String)
                    let request = try CashuPaymentRequest.decode(text)
                    #expect(request.amount == 250 && request.unit == "sat")
                    #expect(request.mints == [mintURL])
                    #expect(request.requestDescription == "two teas")
                    #expect(request.transports == nil)
                    #expect(
                        request.lock?.data
                            == (locked
                                ? Hex.encode(
                                    try cashu.wallet().lockPublicKey.compressed, prefix: false)
                                : nil))
                }
                for (query, status) in [
                    ("amount=250&unit=usd", HTTPResponse.Status.notFound),
                    ("amount=0", .badRequest), ("amount=ten", .badRequest), ("", .badRequest),
                    // One spelling per amount: no sign, space or leading zero; at most 2^53.
                    ("amount=%2B5", .badRequest), ("amount=%205", .badRequest),
                    ("amount=05", .badRequest), ("amount=9007199254740993", .badRequest),
                    ("amount=99999999999999999999999", .badRequest),
                    ("amount=9007199254740992", .ok), ("amount=5&amount=6", .badRequest),
                    ("amount=5&unit=sat&unit=usd", .badRequest), ("amount=5&unit=SAT", .ok),
                ] {
                    try await client.execute(
                        uri: "/api/cashu/request?\(query)", method: .get,
                        headers: NodeAPITests.authorized
                    ) { response in #expect(response.status == status, "\(query)") }
                }
                try await client.execute(
                    uri: "/api/cashu/request/qr.svg?amount=21", method: .get,
                    headers: NodeAPITests.authorized
                ) { response in
                    #expect(response.headers[.contentType] == "image/svg+xml")
                }
            }
        }
    }

    @Test func theFeedAnnouncesEachTokenOnceWhicheverProcessTookIt() async throws {
        let bob = try node.wallet(node.world.bobKey)
        _ = try payee.take(try mint.token([1], secretPrefix: "before").encoded())
        let feed = PaymentFeed(cashu: store)
        #expect(try await feed.poll([bob]) == 0)  // the first reading learns what is there
        _ = try payee.take(try mint.token([4, 1]).encoded())
        // Taken by another process (`tender cashu receive` beside the node): the same store.
        let other = CashuWallet(
            store: try CashuDatabase(path: store.path),
            lockPublicKey: try payee.wallet().lockPublicKey)
        _ = try other.receive(
            try mint.token([2], secretPrefix: "other").encoded(), now: node.clock.now())
        #expect(try await feed.poll([bob]) == 2)
        #expect(try await feed.poll([bob]) == 0)
    }
}
