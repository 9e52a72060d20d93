import Cashu
import Codecs

/// A melt quote (NUT-05, bolt11 by NUT-23): what paying an invoice costs. Inputs must be worth
/// `amount + feeReserve` plus the keysets' input fees; what the payment did not use comes back
/// as change (NUT-08).
public struct MeltQuote: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        case unpaid = "UNPAID"
        /// The payment is in flight: the inputs are PENDING until it settles or fails.
        case pending = "PENDING"
        case paid = "PAID"
    }

    public let quote: String
    public let request: String?
    public let amount: UInt64
    public let feeReserve: UInt64
    public let unit: String?
    public let state: State
    public let expiry: UInt64?
    /// The invoice's preimage once paid: the proof of payment.
    public let paymentPreimage: String?

    static func parse(_ json: JSON) throws(MalformedAnswer) -> MeltQuote {
        let text = try json.string("state", in: "quote")
        guard let state = State(rawValue: text) else {
            throw MalformedAnswer("quote.state '\(text)' is not UNPAID, PENDING or PAID")
        }
        let quote = try json.string("quote", in: "quote")
        guard !quote.isEmpty else { throw MalformedAnswer("quote.quote is empty") }
        return MeltQuote(
            quote: quote, request: try json.optionalString("request", in: "quote"),
            amount: try json.amount("amount", in: "quote"),
            feeReserve: try json.optionalAmount("fee_reserve", in: "quote") ?? 0,
            unit: try json.optionalString("unit", in: "quote"), state: state,
            expiry: try json.optionalAmount("expiry", in: "quote"),
            paymentPreimage: try json.optionalString("payment_preimage", in: "quote"))
    }
}

/// The answer to a melt: the payment's state, its preimage, and the change (NUT-08).
public struct MeltResult: Sendable, Hashable {
    public let state: MeltQuote.State
    public let preimage: String?
    /// Signatures on the first blank outputs, in their order (`change[i]` signs
    /// `outputs[i]`); the mint sets their amounts, so unblind each with a `PreparedOutput` of
    /// the signature's amount and the blank output's secret and `r`.
    public let change: [BlindSignature]
    /// The quote as the melt left it.
    public let quote: MeltQuote

    static func parse(
        _ json: JSON, blankOutputs: [BlindedMessage]
    ) throws(MalformedAnswer)
        -> MeltResult
    {
        let quote = try MeltQuote.parse(json)
        var change: [BlindSignature] = []
        if let list = json.optional("change") {
            guard let items = list.arrayValue else {
                throw MalformedAnswer("change is not a list")
            }
            guard items.count <= blankOutputs.count else {
                throw MalformedAnswer(
                    "change has \(items.count) signatures for \(blankOutputs.count) blank outputs")
            }
            for (index, (item, output)) in zip(items, blankOutputs).enumerated() {
                let signature = try BlindSignature.parse(item, at: "change[\(index)]")
                guard signature.keysetID == output.keysetID else {
                    throw MalformedAnswer("change[\(index)].id is not the blank output's keyset")
                }
                guard signature.amount > 0 else {
                    throw MalformedAnswer("change[\(index)].amount is 0")
                }
                change.append(signature)
            }
        }
        return MeltResult(
            state: quote.state, preimage: quote.paymentPreimage, change: change, quote: quote)
    }
}
