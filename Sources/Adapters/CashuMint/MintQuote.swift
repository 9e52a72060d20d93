import Codecs

/// A mint quote (NUT-04, bolt11 by NUT-23): the invoice to pay and whether it is paid. The
/// quote id is a secret between wallet and mint: whoever knows it can mint the ecash.
public struct MintQuote: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case unpaid = "UNPAID"
        /// Paid, ecash not yet issued: `mint(quote:outputs:)` now.
        case paid = "PAID"
        case issued = "ISSUED"
    }

    public let quote: String
    /// The BOLT11 invoice to pay.
    public let request: String
    public let amount: UInt64?
    public let unit: String?
    public let state: State
    /// Until when the invoice can be paid (Unix time); nutshell drops it once paid.
    public let expiry: UInt64?

    static func parse(_ json: JSON) throws(MalformedAnswer) -> MintQuote {
        let text = try json.string("state", in: "quote")
        guard let state = State(rawValue: text) else {
            throw MalformedAnswer("quote.state '\(text)' is not UNPAID, PAID or ISSUED")
        }
        let quote = try json.string("quote", in: "quote")
        guard !quote.isEmpty else { throw MalformedAnswer("quote.quote is empty") }
        return MintQuote(
            quote: quote, request: try json.string("request", in: "quote"),
            amount: try json.optionalAmount("amount", in: "quote"),
            unit: try json.optionalString("unit", in: "quote"), state: state,
            expiry: try json.optionalAmount("expiry", in: "quote"))
    }
}
