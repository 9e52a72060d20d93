import GRDB
import NodeKit
import Tender
import TenderTestSupport
import Testing

@testable import NodeRuntime

/// A link that died after the payment may have left.
private struct LostLink: PaymentTransport {
    func prepare(_ envelope: [UInt8]) async throws(NodeError) {}
    func send(_ envelope: [UInt8]) async throws(TransportFailure) {
        throw .mayHaveSent(NodeError(.io("the link dropped mid-message")))
    }
    func nextReceipt() async throws(NodeError) -> [UInt8]? { nil }
    func finish() async {}
}

@Suite struct InDoubtTests {
    /// A payment marked in doubt says so; one whose mark could not be written says that
    /// instead, and names the state it is still in.
    @Test func aFailedWriteWhileMarkingInDoubtIsReportedAsSuch() async throws {
        let home = try RuntimeHome()
        let wallet = try home.home()
        let clock = FixedClock(home.world.now)
        _ = try wallet.receive(
            try home.payment(900, id: 0x51), key: try home.host.keys.walletKey(), now: clock.now())
        let id = home.requestID(0x61)
        let order = PaymentExchange.Order(
            payee: home.world.carol, amount: 300, asset: .zero, memo: "", requestID: id)
        let lost: NodeError
        do {
            _ = try await PaymentExchange(wallet: wallet, clock: clock).pay(
                order, key: try home.host.keys.walletKey(), via: LostLink(),
                receiptTimeout: .seconds(1))
            Issue.record("a payment over a lost link was made")
            return
        } catch { lost = error }
        #expect(try wallet.outgoingPayment(id).state == .pending)

        // Another connection holds the write lock: the mark cannot be written.
        let writer = try DatabaseQueue(path: home.host.directory.database)
        try writer.inTransaction(.immediate) { _ in
            let reported = InDoubt.mark(id, in: wallet, now: clock.now(), after: lost)
            #expect(reported.description.contains("could not be marked in doubt"))
            #expect(reported.description.contains("it is pending"))
            return .rollback
        }
        try writer.close()
        #expect(try wallet.outgoingPayment(id).state == .pending)

        let reported = InDoubt.mark(id, in: wallet, now: clock.now(), after: lost)
        #expect(reported.description.contains("the payment is in doubt"))
        #expect(try wallet.outgoingPayment(id).state == .inDoubt)
    }
}
