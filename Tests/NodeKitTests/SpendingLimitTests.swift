import Foundation
import NodeKit
import NodeTestSupport
import Secp256k1
import Tender
import TenderTestSupport
import Testing

/// Spending limits on the payments the node makes on its own: checked and counted in the
/// transaction that records the payment, released by a cancel, and never overrun by payments
/// made at once, through one connection or two.
@Suite struct SpendingLimitTests {
    let node = Node()
    var world: World { node.world }
    static let day: UInt64 = 86_400

    /// Alice's wallet at a path a second connection can open, holding `count` notes of `each`.
    func alice(notes count: Int, of each: Amount) throws -> (Wallet, String) {
        let folder = try TemporaryDirectory("tender-limits")
        let path = folder.file("wallet.sqlite")
        let alice = try Wallet.create(at: path, address: world.alice, domain: world.domain)
        try alice.trust(world.issuer, now: node.clock.now())
        let notes = (0..<count).map { world.note(each, serial: UInt8($0 + 1)) }
        let payment = world.payment(
            ProofBundle(notes: notes), to: world.alice, amount: each * Amount(count),
            requestID: node.requestID(0xEE))
        _ = try alice.receive(
            Envelope(domain: world.domain, message: .payment(payment)).encoded(),
            key: world.aliceKey, now: node.clock.now())
        return (alice, path)
    }

    /// Pays `amount` to `payee` under `limits`, trying again while another payment holds the
    /// coin it chose (busy); the outcome: paid, or the refusal.
    static func pay(
        _ wallet: Wallet, _ amount: Amount, to payee: Address, id: Bytes32,
        limits: [SpendingLimit], key: PrivateKey, now: UInt64
    ) -> Result<Void, NodeError> {
        for _ in 0..<200 {
            do {
                _ = try wallet.preparePayment(
                    to: payee, amount: amount, asset: .zero, requestID: id, key: key,
                    within: limits, now: now)
                return .success(())
            } catch {
                if case .busy = error.kind { continue }
                return .failure(error)
            }
        }
        return .failure(NodeError(.busy("still busy after 200 tries")))
    }

    @Test func twentyPaymentsAtOnceFitExactlyUnderTheLimitOverTwoConnections() async throws {
        let (alice, path) = try alice(notes: 20, of: 100)
        let second = try Wallet.open(at: path)
        let limits = [SpendingLimit(payee: nil, asset: .zero, amount: 1000, period: Self.day)]
        let (key, now, bob) = (world.aliceKey, node.clock.now(), world.bob)
        let outcomes = await withTaskGroup(of: Result<Void, NodeError>.self) { group in
            for index in 0..<20 {
                let wallet = index % 2 == 0 ? alice : second
                let id = try! Bytes32([UInt8](repeating: UInt8(index + 1), count: 32))
                group.addTask {
                    Self.pay(wallet, 100, to: bob, id: id, limits: limits, key: key, now: now)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let paid = outcomes.filter { if case .success = $0 { true } else { false } }.count
        let refused = outcomes.compactMap { outcome -> NodeError? in
            if case .failure(let error) = outcome { error } else { nil }
        }
        #expect(paid == 10)
        #expect(refused.count == 10)
        for error in refused {
            #expect(error.code == "over-limit", "\(error)")
            #expect(error.description.contains("would exceed the limit"))
        }
        #expect(try alice.spendingUse(limits, now: now).first?.used == 1000)
        #expect(try alice.outgoingPayments().count == 10)
        #expect(try alice.balances(now: now)[.zero]?.reserved == 1000)
    }

    @Test func aCancelledPaymentNoLongerCountsAndTheWindowRolls() throws {
        let (alice, _) = try alice(notes: 6, of: 100)
        let limits = [SpendingLimit(payee: nil, asset: .zero, amount: 300, period: 3600)]
        let now = node.clock.now()
        for id: UInt8 in 1...3 {
            #expect(
                throws: Never.self,
                performing: {
                    try Self.pay(
                        alice, 100, to: world.bob, id: node.requestID(id), limits: limits,
                        key: world.aliceKey, now: now
                    ).get()
                })
        }
        let over = Self.pay(
            alice, 100, to: world.bob, id: node.requestID(4), limits: limits, key: world.aliceKey,
            now: now)
        #expect(throws: NodeError.self) { try over.get() }
        // Refused: nothing recorded, nothing reserved for it.
        #expect(try alice.outgoingPayments().count == 3)
        #expect(try alice.balances(now: now)[.zero]?.spendable == 300)

        try alice.cancelPayment(node.requestID(2), now: now)
        #expect(try alice.spendingUse(limits, now: now).first?.used == 200)
        #expect(try alice.spendingUse(limits, now: now).first?.remaining == 100)
        try Self.pay(
            alice, 100, to: world.bob, id: node.requestID(4), limits: limits, key: world.aliceKey,
            now: now
        ).get()
        // An hour later the first three have left the window (a rolling hour).
        let later = now + 3600
        #expect(try alice.spendingUse(limits, now: later).first?.used == 0)
        try Self.pay(
            alice, 100, to: world.bob, id: node.requestID(5), limits: limits, key: world.aliceKey,
            now: later
        ).get()
    }

    @Test func aPaymentNoLimitCoversIsRefusedAndAPayeeLimitNamesItsNumbers() throws {
        let (alice, _) = try alice(notes: 6, of: 100)
        let limits = [SpendingLimit(payee: world.bob, asset: .zero, amount: 250, period: Self.day)]
        let now = node.clock.now()
        let carol = world.carol
        let toCarol = Self.pay(
            alice, 100, to: carol, id: node.requestID(1), limits: limits, key: world.aliceKey,
            now: now)
        #expect(throws: NodeError.self) { try toCarol.get() }
        if case .failure(let error) = toCarol {
            #expect(error.code == "over-limit")
            #expect(
                error.description.contains("no spending limit covers paying \(carol.checksummed)"))
        }
        // Another asset is not covered either.
        #expect(throws: NodeError.self) {
            _ = try alice.preparePayment(
                to: world.bob, amount: 1, asset: world.issuer, requestID: node.requestID(9),
                key: world.aliceKey, within: limits, now: now)
        }
        try Self.pay(
            alice, 200, to: world.bob, id: node.requestID(2), limits: limits, key: world.aliceKey,
            now: now
        ).get()
        let over = Self.pay(
            alice, 100, to: world.bob, id: node.requestID(3), limits: limits, key: world.aliceKey,
            now: now)
        if case .failure(let error) = over {
            #expect(error.description.contains("paying 100 would exceed the limit of 250"))
            #expect(error.description.contains("(200 used, 50 left)"))
        } else {
            Issue.record("a payment past the limit was made")
        }
        // A person's payment (no limits given) is not the node's to refuse.
        _ = try alice.preparePayment(
            to: carol, amount: 100, asset: .zero, requestID: node.requestID(4),
            key: world.aliceKey, now: now)
        #expect(try alice.spendingUse(limits, now: now).first?.used == 200)
    }
}
