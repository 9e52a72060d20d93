import Foundation
import NodeKit
import NodeTestSupport
import Secp256k1
import Synchronization
import Tender
import TenderTestSupport
import Testing

/// The payment exchange every transport plugs into (PROTOCOL.md §5): exactly once, whatever
/// the medium does.
@Suite struct ExchangeTests {
    let node = Node()
    var world: World { node.world }

    func exchange(_ wallet: Wallet) -> PaymentExchange {
        PaymentExchange(wallet: wallet, clock: node.clock)
    }

    @Test func aPaymentOverALinkIsSpentWithItsReceipt() async throws {
        let alice = try node.fundedAlice([100])
        let bob = try node.wallet(world.bobKey)
        let link = MemoryTransport(payee: bob, key: world.bobKey, clock: node.clock)
        let outcome = try await exchange(alice).pay(
            node.order(to: world.bob, 60, id: 1), key: world.aliceKey, via: link,
            receiptTimeout: .generousWait)
        #expect(outcome.record.state == .spent)
        #expect(try alice.balances(now: node.clock.now())[.zero]?.spendable == 40)
        #expect(try bob.balances(now: node.clock.now())[.zero]?.spendable == 60)
        #expect(await link.finished)
        let received = try #require(try bob.incomingPayments().first)
        #expect(received.payer == world.alice)
        #expect(received.memo == "tea")
    }

    @Test func aTransportThatFailsBeforeSendingGivesThePaymentBack() async throws {
        for step in [MemoryTransport.Step.prepare, .sendNothing] {
            let alice = try node.fundedAlice([100])
            let before = try alice.balances(now: node.clock.now())
            let link = MemoryTransport(failAt: step, clock: node.clock)
            do {
                _ = try await exchange(alice).pay(
                    node.order(to: world.bob, 60, id: 1), key: world.aliceKey, via: link,
                    receiptTimeout: .generousWait)
                Issue.record("a failed transport paid (\(step))")
            } catch {
                #expect(error.note?.contains("nothing was sent") == true, "\(step)")
            }
            #expect(try alice.outgoingPayment(node.requestID(1)).state == .cancelled)
            #expect(try alice.balances(now: node.clock.now()) == before, "\(step)")
        }
    }

    @Test func aLinkThatMayHaveSentLeavesThePaymentPendingToResolveLater() async throws {
        let alice = try node.fundedAlice([100])
        let bob = try node.wallet(world.bobKey)
        let link = MemoryTransport(failAt: .sendPartly, clock: node.clock)
        let id = node.requestID(1)
        await #expect(throws: NodeError.self) {
            _ = try await exchange(alice).pay(
                node.order(to: world.bob, 60, id: 1), key: world.aliceKey, via: link,
                receiptTimeout: .generousWait)
        }
        #expect(try alice.outgoingPayment(id).state == .pending)
        // The change is spendable; the 60 paid stays pending until the payee answers.
        let balance = try #require(try alice.balances(now: node.clock.now())[.zero])
        #expect(balance.spendable == 40 && balance.pending == 60)
        #expect(throws: NodeError.self) { try alice.cancelPayment(id, now: node.clock.now()) }
        // Sent again later: the same bytes, the payee's receipt closes it.
        let again = try alice.exportPayment(id, now: node.clock.now())
        let receipt = try bob.receive(again, key: world.bobKey, now: node.clock.now()).receipt
        #expect(try alice.recordReceipt(receipt, now: node.clock.now()).state == .spent)
    }

    /// Stale receipts (another payment's, garbage) are skipped, and a medium that ends
    /// without this payment's receipt leaves it pending; a silent payee never answers, and the
    /// exchange returns at its timeout (were it not cancelled, `nextReceipt` would wait for
    /// ever and this test would not end). Two payments, so neither depends on how many stale
    /// codes a busy machine reads within the timeout.
    @Test func noReceiptWithinTheTimeoutLeavesItPendingAndStaleReceiptsAreSkipped() async throws {
        let alice = try node.fundedAlice([100, 100])
        let bob = try node.wallet(world.bobKey)
        // An earlier payment's receipt is still on the payee's screen.
        let first = MemoryTransport(payee: bob, key: world.bobKey, clock: node.clock)
        _ = try await exchange(alice).pay(
            node.order(to: world.bob, 10, id: 1), key: world.aliceKey, via: first,
            receiptTimeout: .generousWait)
        let stale = try #require(try alice.outgoingPayments().first?.receipt)

        let ending = MemoryTransport(
            clock: node.clock, stale: [stale, [1, 2, 3]], silentWhenDrained: false)
        let skipped = Counter()
        let outcome = try await exchange(alice).pay(
            node.order(to: world.bob, 20, id: 2), key: world.aliceKey, via: ending,
            receiptTimeout: .generousWait,
            events: { if case .skipped = $0 { skipped.add() } })
        #expect(outcome.record.state == .pending)
        #expect(skipped.value == 2)
        #expect(await ending.finished)

        let silent = MemoryTransport(clock: node.clock, stale: [stale])
        let timedOut = try await exchange(alice).pay(
            node.order(to: world.bob, 30, id: 3), key: world.aliceKey, via: silent,
            receiptTimeout: .milliseconds(200))
        #expect(timedOut.record.state == .pending)
        #expect(await silent.finished)
    }

    @Test func thePayeeServesOnAfterARefusalAndKeepsEvidence() async throws {
        let bob = try node.wallet(world.bobKey)
        let note = world.note(100)
        let coin = note.coinID(in: world.domain)
        let first = world.transfer(
            [coin], [(world.bob, 60), (world.alice, 40)], by: world.aliceKey)
        let second = world.transfer(
            [coin], [(world.bob, 70), (world.alice, 30)], by: world.aliceKey)
        func envelope(_ transfer: SignedTransfer, _ amount: Amount, _ id: UInt8) -> [UInt8] {
            let payment = world.payment(
                ProofBundle(notes: [note], transfers: [transfer]), to: world.bob, amount: amount,
                requestID: try! Bytes32([UInt8](repeating: id, count: 32)))
            return Envelope(domain: world.domain, message: .payment(payment)).encoded()
        }
        let good = envelope(first, 60, 1)
        var tampered = good
        tampered[tampered.count - 20] ^= 1  // inside the payer's signature
        let source = Queue([tampered, good, good, envelope(second, 70, 2)])
        let deliveries = Deliveries()
        try await exchange(bob).receive(from: source, key: world.bobKey, once: false) {
            deliveries.append($0)
        }
        let outcomes = deliveries.items.map { delivery -> String in
            switch delivery {
            case .accepted(let received): received.repeated ? "repeated" : "accepted"
            case .refused(let error): error.code
            }
        }
        #expect(outcomes == ["bad-payment-signature", "accepted", "repeated", "double-spend"])
        #expect(await source.replies.count == 2)
        #expect(await source.replies[0] == source.replies[1])
        #expect(try bob.evidence().map(\.evidence.coin) == [coin])
        #expect(try bob.balances(now: node.clock.now())[.zero]?.spendable == 60)
    }

    @Test func errorsHaveKindsAndStableCodes() async throws {
        let alice = try node.fundedAlice([100])
        let unknown = node.requestID(9)
        #expect(throws: NodeError.self) { try alice.exportPayment(unknown, now: node.clock.now()) }
        do { _ = try alice.exportPayment(unknown, now: node.clock.now()) } catch {
            #expect(error.code == "not-found")
        }
        let link = MemoryTransport(clock: node.clock)
        _ = try await exchange(alice).pay(
            node.order(to: world.bob, 10, id: 1), key: world.aliceKey, via: link,
            receiptTimeout: .milliseconds(10))
        do {
            _ = try await exchange(alice).pay(
                node.order(to: world.bob, 10, id: 1), key: world.aliceKey, via: link,
                receiptTimeout: .milliseconds(10))
            Issue.record("the same request was paid twice")
        } catch { #expect(error.code == "exists") }
        do {
            _ = try await exchange(alice).pay(
                node.order(to: .zero, 10, id: 3), key: world.aliceKey, via: link,
                receiptTimeout: .milliseconds(10))
            Issue.record("the zero address was paid")
        } catch { #expect(error.code == "usage") }
        do {
            _ = try await exchange(alice).pay(
                node.order(to: world.bob, 1_000, id: 4), key: world.aliceKey, via: link,
                receiptTimeout: .milliseconds(10))
            Issue.record("paid more than held")
        } catch {
            #expect(error.code == "insufficient-funds")
            #expect(error.description.contains("10 paid out and awaiting receipts"))
        }
        #expect(throws: NodeError.self) { try alice.trust(alice.address, now: 0) }
        #expect(throws: NodeError.self) { try alice.trust(.zero, now: 0) }
    }
}

/// Payments queued for the payee; its replies kept.
actor Queue: PaymentSource {
    private var payments: [[UInt8]]
    private(set) var replies: [[UInt8]] = []
    init(_ payments: [[UInt8]]) { self.payments = payments }
    func nextPayment() async throws(NodeError) -> [UInt8]? {
        payments.isEmpty ? nil : payments.removeFirst()
    }
    func reply(_ receipt: [UInt8]) async throws(NodeError) { replies.append(receipt) }
    func finish() async {}
}

/// Coins reserved by a payment in the making are not "insufficient funds": the wallet says
/// it is busy, and the payment goes once the other is handed over or cancelled.
@Suite struct PaymentInTheMakingTests {
    let node = Node()

    @Test func enoughCoinsButReservedIsBusyNotInsufficient() throws {
        let alice = try node.fundedAlice([10, 20])
        let world = node.world
        let ids = try (1...3).map { try Bytes32([UInt8](repeating: $0, count: 32)) }
        let first = try alice.preparePayment(
            to: world.bob, amount: 25, asset: .zero, requestID: ids[0],
            key: world.aliceKey, now: node.clock.now())
        do {
            _ = try alice.preparePayment(
                to: world.bob, amount: 5, asset: .zero, requestID: ids[1],
                key: world.aliceKey, now: node.clock.now())
            Issue.record("paid with coins another payment holds")
        } catch {
            #expect(error.code == "busy" && error.description.contains("not yet handed over"))
        }
        // More than the wallet holds at all stays "insufficient funds".
        do {
            _ = try alice.preparePayment(
                to: world.bob, amount: 31, asset: .zero, requestID: ids[2],
                key: world.aliceKey, now: node.clock.now())
            Issue.record("paid more than held")
        } catch { #expect(error.code == "insufficient-funds") }
        // Handed over, its change (5) is spendable: the second payment goes.
        try alice.handedOver(first.requestID, now: node.clock.now())
        _ = try alice.preparePayment(
            to: world.bob, amount: 5, asset: .zero, requestID: ids[1],
            key: world.aliceKey, now: node.clock.now())
    }

    /// Change passed on as often as a coin may be offline still counts as spendable in the
    /// balance, but no payment can take it: the refusal says so and how to free it, instead
    /// of "spendable 92" beside "insufficient funds".
    @Test func changeTooDeepToPayOfflineIsNamedInTheRefusal() throws {
        let alice = try node.fundedAlice([100])
        let world = node.world
        let maxHops = VerificationLimits.standard.maxHops
        for payment in 1...maxHops {
            let prepared = try alice.preparePayment(
                to: world.bob, amount: 1, asset: .zero, requestID: node.requestID(UInt8(payment)),
                key: world.aliceKey, now: node.clock.now())
            try alice.handedOver(prepared.requestID, now: node.clock.now())
        }
        let left = Amount(100 - maxHops)
        #expect(try alice.balances(now: node.clock.now())[.zero]?.spendable == left)
        do {
            _ = try alice.preparePayment(
                to: world.bob, amount: 1, asset: .zero, requestID: node.requestID(0xFF),
                key: world.aliceKey, now: node.clock.now())
            Issue.record("paid with a coin past the hop cap")
        } catch {
            #expect(error.code == "insufficient-funds")
            #expect(error.description.contains("need 1, spendable 0"))
            #expect(
                error.description.contains(
                    "\(left) in coins passed on as many times as a coin may be offline: a sync settles them"
                ))
        }
    }

    /// Beside coins passed on too often, a payment being made holds the only other coin: a
    /// payment that coin could cover is busy (it comes free), a larger one is insufficient
    /// (waiting would not help: the deep change never comes free offline).
    @Test func reservedCoinsBesideTooDeepChangeAreBusyOnlyWhenTheyCouldCover() throws {
        let alice = try node.fundedAlice([100, 50])
        let world = node.world
        for payment in 1...VerificationLimits.standard.maxHops {
            // The smallest coin that covers 1 is the 50's change each time.
            let prepared = try alice.preparePayment(
                to: world.bob, amount: 1, asset: .zero, requestID: node.requestID(UInt8(payment)),
                key: world.aliceKey, now: node.clock.now())
            try alice.handedOver(prepared.requestID, now: node.clock.now())
        }
        _ = try alice.preparePayment(
            to: world.bob, amount: 1, asset: .zero, requestID: node.requestID(0xF0),
            key: world.aliceKey, now: node.clock.now())
        func refusal(_ amount: Amount, _ id: UInt8) -> NodeError? {
            do {
                _ = try alice.preparePayment(
                    to: world.bob, amount: amount, asset: .zero, requestID: node.requestID(id),
                    key: world.aliceKey, now: node.clock.now())
                return nil
            } catch { return error }
        }
        #expect(refusal(30, 0xF1)?.code == "busy")
        let tooMuch = refusal(120, 0xF2)
        #expect(tooMuch?.code == "insufficient-funds", "\(String(describing: tooMuch))")
        #expect(tooMuch?.description.contains("42 in coins passed on") == true)
    }
}
