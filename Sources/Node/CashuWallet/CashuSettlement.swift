/// What one sync did at one mint.
public struct CashuSettlement: Sendable, Hashable {
    public let mint: String
    /// Taken offline, now this wallet's own proofs (after the mint's fee), by unit.
    public var swapped: [String: UInt64] = [:]
    /// Refused by the mint, by unit: spent elsewhere before this wallet swapped it (the payer
    /// spent it twice), or unspendable; the token is kept as evidence.
    public var refused: [String: UInt64] = [:]
    /// Swaps cut short earlier (a crash, a lost answer) and resolved now.
    public var recovered: Int = 0
    /// New keysets the mint published.
    public var newKeysets: Int = 0
    /// Why the mint could not be reached or answered wrongly; what is left is tried again at
    /// the next sync.
    public var failure: String?

    public init(mint: String) { self.mint = mint }
}
