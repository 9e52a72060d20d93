/// A medium that carries a payment to a payee and, when it can, the receipt back: a file, a
/// loop of QR codes with a camera watching for the receipt, a Bluetooth link.
///
/// The exchange calls `prepare` while the payment can still be cancelled, then marks it handed
/// over, then calls `send`, then asks for receipts. A transport never decides a payment's
/// state; it only says what happened to the bytes.
public protocol PaymentTransport: Sendable {
    /// Readies everything that could fail before a byte leaves (render codes, open devices,
    /// check the output path). A throw here cancels the payment: nothing was sent.
    func prepare(_ envelope: [UInt8]) async throws(NodeError)

    /// Sends the envelope prepared before. `TransportFailure.nothingSent` when the transport
    /// can prove nothing left (the payment is given back); `.mayHaveSent` otherwise.
    func send(_ envelope: [UInt8]) async throws(TransportFailure)

    /// The next candidate receipt from the payee (each is checked: a stale code on a screen
    /// is skipped), or nil when this medium brings none, or no more. Must end soon after its
    /// task is cancelled (the exchange cancels it at the receipt timeout).
    func nextReceipt() async throws(NodeError) -> [UInt8]?

    /// Stops whatever is still running (a loop on a screen, a camera, a link).
    func finish() async
}

/// How sending failed.
public enum TransportFailure: Error, Sendable {
    /// Nothing left the node: the payment can be given back.
    case nothingSent(NodeError)
    /// Some or all of it may have reached the payee: the payment stays pending (or in doubt).
    case mayHaveSent(NodeError)
}

/// The payee's side of a medium: where payments come from and receipts go back.
public protocol PaymentSource: Sendable {
    /// The next payment envelope, or nil when the source is done.
    func nextPayment() async throws(NodeError) -> [UInt8]?
    /// Returns the receipt for the payment `nextPayment` gave last.
    func reply(_ receipt: [UInt8]) async throws(NodeError)
    /// Tells the payer the payment `nextPayment` gave last was refused, and why.
    func refuse(_ error: NodeError) async
    func finish() async
}

extension PaymentSource {
    /// A medium with no way back to the payer (a file) says nothing.
    public func refuse(_ error: NodeError) async {}
}
