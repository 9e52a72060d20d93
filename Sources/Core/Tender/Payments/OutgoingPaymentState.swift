/// The payer's side of one payment (PROTOCOL.md §5, "Payer states").
///
/// `prepared` is written in the same transaction that reserves the coins; `pending` once the
/// payment may have left (its transfer is irrevocable then: the inputs are spent and the change
/// is spendable; what was paid stays pending); `spent` on a valid receipt; `inDoubt` when the
/// link dies after the payment may have left. Only a payment that certainly never left the
/// node can be cancelled: anything else may already be the payee's.
public enum OutgoingPaymentState: String, Sendable, CaseIterable {
    /// Coins reserved, payment not yet handed to any transport.
    case prepared
    /// Handed over (written to a file, sent on a link); waiting for the receipt.
    case pending
    /// The link died after sending: the payee may or may not have it.
    case inDoubt = "in-doubt"
    /// The payee's receipt arrived: the coins are gone, change is spendable.
    case spent
    /// Never left the node; coins released.
    case cancelled

    public enum Event: String, Sendable {
        case handOver = "hand over"
        case linkLost = "mark in doubt"
        case receipt = "record a receipt for"
        case cancel = "cancel"
        /// Writing the payment out again (`payments export`): it may reach the payee.
        case export = "export"
        /// The transport proved that nothing left the node (a failed atomic write, a link
        /// that never opened): the payment is given back.
        case notSent = "give back an unsent"
        /// The vault shows the payment's transfer consumed its inputs: it reached the chain
        /// (the payee, or whoever it paid onward, redeemed), receipt or not.
        case onChain = "settle from the chain"
        /// Its coins expired with the vault showing its inputs unconsumed: no one can redeem
        /// the transfer any more, so its inputs are the payer's again (PROTOCOL.md §11).
        case lapse = "close a lapsed"
    }

    /// The next state, or an error naming the refused transition. Receipts are idempotent.
    public func applying(_ event: Event) throws(ProtocolError) -> OutgoingPaymentState {
        switch (self, event) {
        case (.prepared, .handOver), (.pending, .handOver): return .pending
        case (.prepared, .linkLost), (.pending, .linkLost), (.inDoubt, .linkLost): return .inDoubt
        case (.prepared, .receipt), (.pending, .receipt), (.inDoubt, .receipt), (.spent, .receipt):
            return .spent
        case (.pending, .onChain), (.inDoubt, .onChain), (.spent, .onChain): return .spent
        case (.prepared, .cancel), (.prepared, .notSent), (.pending, .notSent),
            (.pending, .lapse), (.inDoubt, .lapse):
            return .cancelled
        // A cancelled payment's coins were released and may be spent again: its bytes must
        // never leave the node. Any other may (the payee accepts a repeat idempotently).
        case (.prepared, .export), (.pending, .export): return .pending
        case (.inDoubt, .export), (.spent, .export): return self
        default:
            throw ProtocolError(.invalidTransition(state: rawValue, event: event.rawValue))
        }
    }

    /// Whether the reserved coins may still be spent again (only after a cancel).
    public var releasesCoins: Bool { self == .cancelled }
    /// Whether the change is spendable: once the payment may have left, its transfer is
    /// irrevocable, so the change is the payer's whatever the payee does.
    public var releasesChange: Bool { self == .pending || self == .inDoubt || self == .spent }
}

/// The payee's side of one request: idempotent per request id.
public enum IncomingRequestDecision: Equatable, Sendable {
    /// First payment for this request: accept and sign a receipt.
    case accept
    /// The same payment again (a retry after a lost link): return the stored receipt.
    case repeatReceipt
}

/// Decides what to do with a checked payment, given what the payee already accepted for the
/// same request id (`acceptedDigest`), if anything.
public func decide(
    requestID: Bytes32, paymentDigest: Bytes32, acceptedDigest: Bytes32?
) throws(ProtocolError) -> IncomingRequestDecision {
    guard let acceptedDigest else { return .accept }
    guard acceptedDigest == paymentDigest else {
        throw ProtocolError(.requestAlreadyPaid(requestID: requestID))
    }
    return .repeatReceipt
}
