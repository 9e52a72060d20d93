import NodeKit
import NodeTestSupport
import Tender
import TenderTestSupport
import Testing

/// A payment whose link died is settled at the next contact with its payee: the same bytes
/// again, answered with a receipt whether or not the first copy arrived (PROTOCOL.md §5).
@Suite struct ResendTests {
    let node = Node()
    var world: World { node.world }

    func exchange(_ wallet: Wallet) -> PaymentExchange {
        PaymentExchange(wallet: wallet, clock: node.clock)
    }

    /// Pays 60 over a link that dies mid-send, then marks the payment in doubt as
    /// `pay --ble` does.
    func inDoubtPayment(from alice: Wallet) async throws -> Bytes32 {
        let lost = MemoryTransport(failAt: .sendPartly, clock: node.clock)
        await #expect(throws: NodeError.self) {
            _ = try await exchange(alice).pay(
                node.order(to: world.bob, 60, id: 1), key: world.aliceKey, via: lost,
                receiptTimeout: .generousWait)
        }
        let id = node.requestID(1)
        try alice.linkLost(id, now: node.clock.now())
        #expect(try alice.outgoingPayment(id).state == .inDoubt)
        return id
    }

    @Test func aPaymentThatNeverArrivedIsAcceptedWhenSentAgain() async throws {
        let alice = try node.fundedAlice([100])
        let bob = try node.wallet(world.bobKey)
        let id = try await inDoubtPayment(from: alice)
        #expect(try exchange(alice).unresolvedPayments(to: world.bob).map(\.requestID) == [id])
        let before = try alice.outgoingPayment(id).envelope

        let link = MemoryTransport(payee: bob, key: world.bobKey, clock: node.clock)
        let record = try await exchange(alice).resend(id, via: link, receiptTimeout: .generousWait)
        #expect(record.state == .spent)
        #expect(await link.sent == [before])
        #expect(await link.finished)
        #expect(try exchange(alice).unresolvedPayments(to: world.bob).isEmpty)
        #expect(try alice.balances(now: node.clock.now())[.zero]?.spendable == 40)
        #expect(try bob.balances(now: node.clock.now())[.zero]?.spendable == 60)
    }

    @Test func aPaymentThatArrivedGetsTheSameReceiptAndIsCreditedOnce() async throws {
        let alice = try node.fundedAlice([100])
        let bob = try node.wallet(world.bobKey)
        let id = try await inDoubtPayment(from: alice)
        // The first copy did arrive: Bob accepted it, his receipt was lost on the way back.
        let first = try bob.receive(
            try alice.outgoingPayment(id).envelope, key: world.bobKey, now: node.clock.now())

        let link = MemoryTransport(payee: bob, key: world.bobKey, clock: node.clock)
        let record = try await exchange(alice).resend(id, via: link, receiptTimeout: .generousWait)
        #expect(record.state == .spent)
        #expect(record.receipt == first.receipt)
        #expect(try bob.balances(now: node.clock.now())[.zero]?.spendable == 60)
        #expect(try bob.incomingPayments().count == 1)
    }

    @Test func aFailedResendLeavesThePaymentInDoubtAndSettledOnesAreNotSentAgain() async throws {
        let alice = try node.fundedAlice([100])
        let bob = try node.wallet(world.bobKey)
        let id = try await inDoubtPayment(from: alice)
        let dead = MemoryTransport(failAt: .sendPartly, clock: node.clock)
        await #expect(throws: NodeError.self) {
            _ = try await exchange(alice).resend(id, via: dead, receiptTimeout: .generousWait)
        }
        #expect(try alice.outgoingPayment(id).state == .inDoubt)
        #expect(try alice.balances(now: node.clock.now())[.zero]?.spendable == 40)

        let link = MemoryTransport(payee: bob, key: world.bobKey, clock: node.clock)
        _ = try await exchange(alice).resend(id, via: link, receiptTimeout: .generousWait)
        let again = MemoryTransport(payee: bob, key: world.bobKey, clock: node.clock)
        await #expect(throws: NodeError.self) {
            _ = try await exchange(alice).resend(id, via: again, receiptTimeout: .generousWait)
        }
        #expect(await again.sent.isEmpty)
    }
}
