import PaymentSession

/// How a payee takes Cashu tokens over the air (Docs/PROTOCOL.md §10.3): its terms for a payer
/// that asks (signed for the session key given; nil while it cannot say them) and the answer
/// to a token offered: taken, or refused. Both run on the payee's actor, one at a time: a
/// stranger's tokens cannot take more than one thread.
public struct CashuTaking: Sendable {
    public let terms: @Sendable (_ sessionKey: [UInt8]) -> CashuTerms?
    public let take: @Sendable (String) -> Answer.Content

    /// Cashu offers (questions and tokens) one session may make: a payer pays a token or two;
    /// a stranger's flood ends with its link.
    public static let offersPerSession = 8

    public init(
        terms: @escaping @Sendable (_ sessionKey: [UInt8]) -> CashuTerms?,
        take: @escaping @Sendable (String) -> Answer.Content
    ) {
        self.terms = terms
        self.take = take
    }
}
