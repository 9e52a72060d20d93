import PaymentCodes

/// What one sync did at one mint.
public struct CashuSettlement: Sendable, Hashable {
    public let mint: String
    /// Taken offline, now this wallet's own proofs (after the mint's fee), by unit.
    public var swapped: [String: UInt64] = [:]
    /// Refused by the mint, by unit: spent elsewhere before this wallet swapped it (the payer
    /// spent it twice), or unspendable; the token is kept as evidence.
    public var refused: [String: UInt64] = [:]
    /// Swaps, mints and melts cut short earlier (a crash, a lost answer) and resolved now.
    public var recovered: Int = 0
    /// New keysets the mint published.
    public var newKeysets: Int = 0
    /// Why the mint could not be reached or answered wrongly; what is left is tried again at
    /// the next sync.
    public var failure: String?

    public init(mint: String) { self.mint = mint }
}

extension CashuSettlement {
    /// Whether anything happened worth a line in a log (a pass with nothing to do says nothing).
    public var isEmpty: Bool {
        swapped.isEmpty && refused.isEmpty && recovered == 0 && failure == nil
    }

    /// One line for people: what was swapped, refused and recovered; why it did not finish.
    public var summary: String {
        var line = headline(evidence: "kept as evidence")
        if let failure { line += "; not finished: \(failure) (tried again at the next sync)" }
        return line
    }

    /// What was swapped, refused (the token kept: `evidence` says where) and recovered.
    public func headline(evidence: String) -> String {
        var line = "\(mint): swapped \(swapped.isEmpty ? "nothing" : Self.text(swapped))"
        if !refused.isEmpty {
            line +=
                "; refused \(Self.text(refused)): not paid, the token was spent elsewhere first (\(evidence))"
        }
        if recovered > 0 {
            line +=
                "; \(recovered) swap(s), mint(s) or melt(s) cut short earlier finished from the mint's records"
        }
        return line
    }

    /// Amounts by unit, each as people read it: `2.50 usd and 21 sat`.
    public static func text(_ amounts: [String: UInt64]) -> String {
        amounts.sorted { $0.key < $1.key }
            .map { CashuUnit.text(UInt128($0.value), unit: $0.key) }
            .joined(separator: " and ")
    }
}
