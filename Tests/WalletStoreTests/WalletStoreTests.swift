import Foundation
import GRDB
import Secp256k1
import Tender
import TenderTestSupport
import Testing

@testable import WalletStore

@Suite struct WalletStoreTests {
    let world = World()

    /// A fresh store in a temporary directory, bound to `owner`.
    func store(for owner: Address) throws -> WalletDatabase {
        let store = try WalletDatabase(
            path: try TemporaryDirectory("tender-store").file("wallet.sqlite"))
        try store.bind(address: owner, domain: world.domain)
        try store.trust(world.issuer, now: world.now)
        return store
    }

    /// Alice's store holding the given notes, accepted as a payment from the issuer.
    func fundedAlice(_ amounts: [Amount]) throws -> WalletDatabase {
        let store = try store(for: world.alice)
        let notes = amounts.enumerated().map { world.note($1, serial: UInt8($0 + 1)) }
        let payment = world.payment(
            ProofBundle(notes: notes), to: world.alice, amount: amounts.reduce(0, +),
            requestID: try Bytes32([UInt8](repeating: 0xEE, count: 32)))
        let checked = try world.verifier.check(
            payment, payee: world.alice, policy: world.policy, now: world.now)
        try store.acceptPayment(checked, receipt: [1], now: world.now)
        return store
    }

    func plan(_ store: WalletDatabase, amount: Amount, id: UInt8) throws -> PaymentPlan {
        let candidates = try store.candidateCoins(
            owner: world.alice, asset: .zero, amount: amount, now: world.now, minimumLifetime: 0,
            limits: .standard)
        return try PaymentBuilder(domain: world.domain).plan(
            requestID: try Bytes32([UInt8](repeating: id, count: 32)), payee: world.bob,
            amount: amount, asset: .zero, from: candidates, key: world.aliceKey, now: world.now)
    }

    func snapshot(_ store: WalletDatabase) throws -> [String] {
        try store.read { db in
            var lines: [String] = []
            for table in [
                "coins", "addresses", "transfers", "notes", "coin_origins", "spends",
                "outgoing_payments",
                "incoming_payments",
                "evidence", "trusted_issuers", "meta",
            ] {
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1") {
                    lines.append("\(table): \(row)")
                }
            }
            return lines
        }
    }

    @Test func refusesToOpenAsAnotherWalletOrChain() throws {
        let store = try store(for: world.alice)
        #expect(throws: WalletStoreError.self) {
            try store.bind(address: world.bob, domain: world.domain)
        }
        #expect(throws: WalletStoreError.self) {
            try store.bind(
                address: world.alice, domain: Domain(chainID: 1, vault: world.domain.vault))
        }
        try store.bind(address: world.alice, domain: world.domain)
    }

    @Test func acceptedNotesBecomeSpendableAndRedeemable() throws {
        let store = try fundedAlice([100, 50])
        #expect(try store.balances(now: world.now, minimumLifetime: 0)[.zero]?.spendable == 150)
        #expect(try store.redeemable(now: world.now, limit: 10).count == 2)
        // The outbox the first schemas kept (written, never read) is gone.
        let tables = try store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        #expect(!tables.contains("outbox"))
    }

    /// A receipt is applied only if it acknowledges the payment stored under its id at the
    /// moment it is applied (checked inside that transaction).
    @Test func aReceiptForAnotherDigestChangesNothing() throws {
        let store = try fundedAlice([100, 50])
        let plan = try plan(store, amount: 70, id: 1)
        try store.preparePayment(plan, envelope: [9], now: world.now)
        try store.advance(payment: plan.payment.requestID, by: .handOver, now: world.now)
        #expect(throws: WalletStoreError.self) {
            try store.advance(
                payment: plan.payment.requestID, by: .receipt, receipt: [7],
                acknowledging: .zero, now: world.now)
        }
        #expect(try store.outgoingPayment(plan.payment.requestID)?.state == .pending)
        // Handed over: what was paid is pending, the change spendable.
        #expect(try store.balances(now: world.now, minimumLifetime: 0)[.zero]?.pending == 70)
        try store.advance(
            payment: plan.payment.requestID, by: .receipt, receipt: [7],
            acknowledging: plan.digest, now: world.now)
        #expect(try store.outgoingPayment(plan.payment.requestID)?.state == .spent)
    }

    @Test func paymentLifecycleMovesCoinsAndChange() throws {
        let store = try fundedAlice([100, 50])
        let plan = try plan(store, amount: 70, id: 1)
        try store.preparePayment(plan, envelope: [9], now: world.now)
        var balance = try #require(try store.balances(now: world.now, minimumLifetime: 0)[.zero])
        #expect(balance.spendable == 50)
        #expect(balance.pending == 100)  // prepared: the whole coin is reserved, change not out
        try store.advance(payment: plan.payment.requestID, by: .handOver, now: world.now)
        balance = try #require(try store.balances(now: world.now, minimumLifetime: 0)[.zero])
        #expect(balance.spendable == 80)  // the change is spendable once handed over
        #expect(balance.pending == 70)
        try store.advance(payment: plan.payment.requestID, by: .linkLost, now: world.now)
        balance = try #require(try store.balances(now: world.now, minimumLifetime: 0)[.zero])
        #expect(balance.inDoubt == 70)
        #expect(balance.pending == 0)
        try store.advance(
            payment: plan.payment.requestID, by: .receipt, receipt: [7], now: world.now)
        balance = try #require(try store.balances(now: world.now, minimumLifetime: 0)[.zero])
        #expect(balance.spendable == 80)  // 50 untouched + 30 change
        #expect(balance.inDoubt == 0)
        #expect(try store.outgoingPayment(plan.payment.requestID)?.state == .spent)
        #expect(try store.outgoingPayment(plan.payment.requestID)?.receipt == [7])
        // The change can be spent in a new payment.
        let next = try self.plan(store, amount: 80, id: 2)
        try store.preparePayment(next, envelope: [9], now: world.now)
        #expect(try store.balances(now: world.now, minimumLifetime: 0)[.zero]?.spendable == 0)
    }

    @Test func aCoinCannotBeReservedTwice() throws {
        let store = try fundedAlice([100])
        let first = try plan(store, amount: 10, id: 1)
        let second = try plan(store, amount: 20, id: 2)  // planned before the first was stored
        try store.preparePayment(first, envelope: [1], now: world.now)
        let before = try snapshot(store)
        #expect(throws: WalletStoreError(.coinNotSpendable(first.spent[0]))) {
            try store.preparePayment(second, envelope: [2], now: world.now)
        }
        #expect(try snapshot(store) == before)
        #expect(throws: WalletStoreError(.paymentExists(first.payment.requestID))) {
            try store.preparePayment(first, envelope: [1], now: world.now)
        }
    }

    @Test func cancellingAPreparedPaymentReturnsItsCoins() throws {
        let store = try fundedAlice([100])
        let before = try store.balances(now: world.now, minimumLifetime: 0)
        let plan = try plan(store, amount: 10, id: 1)
        try store.preparePayment(plan, envelope: [1], now: world.now)
        try store.advance(payment: plan.payment.requestID, by: .cancel, now: world.now)
        #expect(try store.balances(now: world.now, minimumLifetime: 0) == before)
        #expect(try store.seenSpends(of: plan.spent).isEmpty)
        // Once handed over, a payment can no longer be cancelled.
        let again = try self.plan(store, amount: 10, id: 2)
        try store.preparePayment(again, envelope: [1], now: world.now)
        try store.advance(payment: again.payment.requestID, by: .handOver, now: world.now)
        #expect(throws: WalletStoreError.self) {
            try store.advance(payment: again.payment.requestID, by: .cancel, now: world.now)
        }
    }

    @Test func aPaymentIsAcceptedAtMostOnce() throws {
        let bob = try store(for: world.bob)
        let (_, transfer, bundle) = world.alicePaysBob()
        let payment = world.payment(bundle, to: world.bob, amount: 60)
        let checked = try world.verifier.check(
            payment, payee: world.bob, policy: world.policy, now: world.now)
        try bob.acceptPayment(checked, receipt: [1], now: world.now)
        let before = try snapshot(bob)
        #expect(throws: WalletStoreError.self) {
            try bob.acceptPayment(checked, receipt: [1], now: world.now)
        }
        // The same coins under another request id: refused as already held.
        let replay = world.payment(
            bundle, to: world.bob, amount: 60,
            requestID: try Bytes32([UInt8](repeating: 1, count: 32)))
        let replayed = try world.verifier.check(
            replay, payee: world.bob, policy: world.policy, now: world.now)
        #expect(
            throws: WalletStoreError(
                .rejected(ProtocolError(.alreadyHeld(world.outputs(of: transfer)[0]))))
        ) {
            try bob.acceptPayment(replayed, receipt: [1], now: world.now)
        }
        #expect(try snapshot(bob) == before)
        #expect(
            try bob.heldCoins(among: world.outputs(of: transfer)) == [
                world.outputs(of: transfer)[0]
            ])
        #expect(try bob.seenSpends(of: transfer.transfer.inputs).values.first == transfer)
    }

    @Test func aStaleCheckCannotRecordAConflictingSpend() throws {
        let bob = try store(for: world.bob)
        let note = world.note(100)
        let coin = note.coinID(in: world.domain)
        let toBob = world.transfer([coin], [(world.bob, 100)], by: world.aliceKey)
        let toBobAgain = world.transfer(
            [coin], [(world.bob, 40), (world.alice, 60)], by: world.aliceKey)
        let first = try world.verifier.check(
            world.payment(
                ProofBundle(notes: [note], transfers: [toBob]), to: world.bob, amount: 100),
            payee: world.bob, policy: world.policy, now: world.now)
        let second = try world.verifier.check(
            world.payment(
                ProofBundle(notes: [note], transfers: [toBobAgain]), to: world.bob, amount: 40,
                requestID: try Bytes32([UInt8](repeating: 1, count: 32))),
            payee: world.bob, policy: world.policy, now: world.now)
        try bob.acceptPayment(first, receipt: [1], now: world.now)
        let before = try snapshot(bob)
        #expect(throws: WalletStoreError(.coinNotSpendable(coin))) {
            try bob.acceptPayment(second, receipt: [1], now: world.now)
        }
        #expect(try snapshot(bob) == before)
    }

    @Test func evidenceIsStoredOnce() throws {
        let store = try store(for: world.bob)
        let note = world.note(100)
        let coin = note.coinID(in: world.domain)
        let evidence = try DoubleSpendEvidence(
            coin: coin, world.transfer([coin], [(world.bob, 100)], by: world.aliceKey),
            world.transfer([coin], [(world.carol, 100)], by: world.aliceKey), in: world.domain)
        #expect(try store.recordEvidence(evidence, body: [1, 2], now: world.now))
        #expect(try !store.recordEvidence(evidence, body: [1, 2], now: world.now))
        #expect(try store.evidenceBodies().map(\.body) == [[1, 2]])
    }

    @Test func selectionReadsOnlyWhatItNeeds() throws {
        let store = try fundedAlice([5, 10, 20, 40])
        let single = try store.candidateCoins(
            owner: world.alice, asset: .zero, amount: 15, now: world.now, minimumLifetime: 0,
            limits: .standard)
        #expect(single.map(\.coin.amount) == [20])
        let several = try store.candidateCoins(
            owner: world.alice, asset: .zero, amount: 55, now: world.now, minimumLifetime: 0,
            limits: .standard)
        #expect(several.map(\.coin.amount) == [40, 20])
        let expiring = try store.candidateCoins(
            owner: world.alice, asset: .zero, amount: 1, now: world.now, minimumLifetime: 86_400,
            limits: .standard)
        #expect(expiring.isEmpty)
    }
}
