import Cashu
import CashuMint
import Testing

/// Steps the live tests share: the mint's sat keyset, fresh outputs, ecash minted and unblinded.
extension CashuMintRig {
    static let satKeysetID =
        "01859a534f3cdccc7c58a5ac9b023d35630bca430c1573ce263e0034ce24ea5506"

    /// The active sat keyset, its keys checked against its id.
    func satKeyset() async throws -> Keyset {
        try #require(
            try await mint.keys().keysets.first { $0.unit == "sat" && $0.active })
    }

    /// Fresh outputs for `amounts` in `keyset`.
    func outputs(_ amounts: [UInt64], keyset: Keyset) -> [PreparedOutput] {
        var generator = SystemRandomNumberGenerator()
        return amounts.map {
            PreparedOutput.random(amount: $0, keysetID: keyset.id, using: &generator)
        }
    }

    /// The mint quote once the FakeWallet has paid its invoice (a fraction of a second).
    func paid(_ quote: MintQuote) async throws -> MintQuote {
        // Generous: a busy machine may be slow; the loop ends as soon as the quote is paid.
        let deadline = ContinuousClock.now + .seconds(600)
        while true {
            let state = try await mint.mintQuoteState(quote.quote)
            if state.state != .unpaid { return state }
            guard ContinuousClock.now < deadline else {
                throw MintTestFailure("mint quote \(quote.quote) still unpaid after 600 s")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// `amount` in sat ecash, minted as its powers of two and unblinded (DLEQ checked).
    func mintProofs(_ amount: UInt64, keyset: Keyset) async throws -> [Proof] {
        let quote = try await paid(try await mint.mintQuote(amount: amount, unit: "sat"))
        let outputs = outputs(amount.powersOfTwo, keyset: keyset)
        let signatures = try await mint.mint(quote: quote.quote, outputs: outputs.map(\.message))
        return try zip(outputs, signatures).map { try $0.proof(from: $1, keyset: keyset) }
    }
}

struct MintTestFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
