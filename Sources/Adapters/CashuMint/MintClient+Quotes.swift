import Cashu
import Codecs

/// Ecash for a paid invoice (NUT-04) and an invoice paid with ecash (NUT-05, NUT-08), both by
/// bolt11 (NUT-23).
extension MintClient {
    /// POST /v1/mint/quote/bolt11: an invoice for `amount` in `unit`.
    public func mintQuote(amount: UInt64, unit: String) async throws(MintError) -> MintQuote {
        let body = JSON.object([("amount", .number(String(amount))), ("unit", .string(unit))])
        let answer = try await postJSON("/v1/mint/quote/bolt11", body, "mint quote")
        return try reading("mint quote") { () throws(MalformedAnswer) in
            let quote = try MintQuote.parse(answer)
            guard quote.amount == nil || quote.amount == amount else {
                throw MalformedAnswer("quote.amount is not the \(amount) asked")
            }
            guard quote.unit == nil || quote.unit == unit else {
                throw MalformedAnswer("quote.unit is not the '\(unit)' asked")
            }
            return quote
        }
    }

    /// GET /v1/mint/quote/bolt11/{quote}: whether its invoice is paid yet.
    public func mintQuoteState(_ quote: String) async throws(MintError) -> MintQuote {
        let answer = try await getJSON(
            "/v1/mint/quote/bolt11/\(Self.pathSegment(quote))", "mint quote state")
        return try reading("mint quote state") { () throws(MalformedAnswer) in
            let state = try MintQuote.parse(answer)
            guard state.quote == quote else {
                throw MalformedAnswer("quote.quote is another quote")
            }
            return state
        }
    }

    /// POST /v1/mint/bolt11: signatures on `outputs` for a paid quote, one per output, in order.
    public func mint(
        quote: String, outputs: [BlindedMessage]
    ) async throws(MintError) -> [BlindSignature] {
        let body = try request("mint") { () throws(MalformedRequest) in
            JSON.object([("quote", .string(quote)), ("outputs", try Wire.outputs(outputs))])
        }
        let answer = try await postJSON("/v1/mint/bolt11", body, "mint")
        return try reading("mint") { () throws(MalformedAnswer) in
            try BlindSignature.parse(signaturesFor: outputs, in: answer)
        }
    }

    /// POST /v1/melt/quote/bolt11: what paying `invoice` with ecash of `unit` costs.
    public func meltQuote(invoice: String, unit: String) async throws(MintError) -> MeltQuote {
        let body = JSON.object([("request", .string(invoice)), ("unit", .string(unit))])
        let answer = try await postJSON("/v1/melt/quote/bolt11", body, "melt quote")
        return try reading("melt quote") { () throws(MalformedAnswer) in
            let quote = try MeltQuote.parse(answer)
            guard quote.request == nil || quote.request == invoice else {
                throw MalformedAnswer("quote.request is not the invoice asked")
            }
            return quote
        }
    }

    /// GET /v1/melt/quote/bolt11/{quote}: how a melt went, after a lost answer.
    public func meltQuoteState(_ quote: String) async throws(MintError) -> MeltQuote {
        let answer = try await getJSON(
            "/v1/melt/quote/bolt11/\(Self.pathSegment(quote))", "melt quote state")
        return try reading("melt quote state") { () throws(MalformedAnswer) in
            let state = try MeltQuote.parse(answer)
            guard state.quote == quote else {
                throw MalformedAnswer("quote.quote is another quote")
            }
            return state
        }
    }

    /// POST /v1/melt/bolt11: pays the quote's invoice with `inputs` (worth `amount +
    /// feeReserve` and the input fees); `outputs` are blank outputs for the change (NUT-08:
    /// `max(ceil(log2(feeReserve)), 1)` of them, none when the reserve is 0). Waits up to
    /// `meltTimeout` for the payment; after a timeout read the quote (`meltQuoteState`).
    public func melt(
        quote: String, inputs: [Proof], outputs: [BlindedMessage]
    ) async throws(MintError) -> MeltResult {
        let body = try request("melt") { () throws(MalformedRequest) in
            var entries: [(key: String, value: JSON)] = [
                ("quote", .string(quote)), ("inputs", try Wire.proofs(inputs, field: "inputs")),
            ]
            if !outputs.isEmpty { entries.append(("outputs", try Wire.outputs(outputs))) }
            return JSON.object(entries)
        }
        let answer = try await postJSON("/v1/melt/bolt11", body, "melt", timeout: meltTimeout)
        return try reading("melt") { () throws(MalformedAnswer) in
            let result = try MeltResult.parse(answer, blankOutputs: outputs)
            guard result.quote.quote == quote else {
                throw MalformedAnswer("quote.quote is another quote")
            }
            return result
        }
    }

    /// A quote id as one path segment: anything but unreserved characters percent-encoded.
    static func pathSegment(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Hex.encode([byte], prefix: false).uppercased()
                out += "%\(hex)"
            }
        }
        return out
    }
}
