import Tender
import WalletStore

extension PaymentExchange {
    /// Payments to `payee` that left (or may have left) the node without a receipt: pending
    /// or in doubt, oldest first. The next contact with that payee settles them (`resend`).
    public func unresolvedPayments(to payee: Address) throws(NodeError) -> [OutgoingPaymentRecord] {
        try wallet.outgoingPayments()
            .filter { $0.payee == payee && ($0.state == .pending || $0.state == .inDoubt) }
            .sorted { $0.createdAt < $1.createdAt }
    }

    /// Sends a payment that already left the node again, byte for byte, and waits up to
    /// `receiptTimeout` for the receipt: the payee accepts it if it never arrived, or answers
    /// with the receipt it already signed (PROTOCOL.md §5). Nothing new is reserved or
    /// spent; a link that fails again leaves the payment in doubt, as it was.
    public func resend(
        _ requestID: Bytes32, via transport: some PaymentTransport, receiptTimeout: Duration,
        events: @escaping @Sendable (Event) -> Void = { _ in }
    ) async throws(NodeError) -> OutgoingPaymentRecord {
        let existing = try wallet.outgoingPayment(requestID)
        guard existing.state == .pending || existing.state == .inDoubt else {
            throw NodeError(
                .usage(
                    "payment \(requestID.hex) is \(existing.state.rawValue): only a pending or in-doubt payment is sent again"
                ))
        }
        let envelope = try wallet.exportPayment(requestID, now: clock.now())
        do { try await transport.prepare(envelope) } catch {
            await transport.finish()
            throw error
        }
        events(.handedOver)
        do { try await transport.send(envelope) } catch {
            await transport.finish()
            switch error {
            case .nothingSent(let cause), .mayHaveSent(let cause): throw cause
            }
        }
        events(.sent)
        let record = try await awaitReceipt(
            for: requestID, from: transport, timeout: receiptTimeout, events: events)
        await transport.finish()
        return record
    }
}
