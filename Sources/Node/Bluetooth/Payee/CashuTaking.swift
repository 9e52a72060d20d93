import PaymentSession

/// How a payee takes Cashu tokens over the air (Docs/PROTOCOL.md §10.3): the terms its hello
/// carries (nil while it cannot say them) and the answer to a token offered: taken, or refused.
public struct CashuTaking: Sendable {
    public let terms: @Sendable () -> CashuTerms?
    public let take: @Sendable (String) async -> Answer.Content

    public init(
        terms: @escaping @Sendable () -> CashuTerms?,
        take: @escaping @Sendable (String) async -> Answer.Content
    ) {
        self.terms = terms
        self.take = take
    }
}
