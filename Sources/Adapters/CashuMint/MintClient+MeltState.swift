import Cashu
import Codecs

extension MintClient {
    /// GET /v1/melt/quote/bolt11/{quote}, read as the answer of the melt made with
    /// `blankOutputs`: its state, preimage and, once paid, the change signed on them (NUT-08),
    /// so a melt whose answer was lost still gets its change. Restore (NUT-09) cannot give it:
    /// the mint signs the blank outputs for amounts the wallet did not ask.
    public func meltState(
        _ quote: String, blankOutputs: [BlindedMessage]
    ) async throws(MintError) -> MeltResult {
        let answer = try await getJSON(
            "/v1/melt/quote/bolt11/\(Self.pathSegment(quote))", "melt quote state")
        return try reading("melt quote state") { () throws(MalformedAnswer) in
            let result = try MeltResult.parse(answer, blankOutputs: blankOutputs)
            guard result.quote.quote == quote else {
                throw MalformedAnswer("quote.quote is another quote")
            }
            return result
        }
    }
}
