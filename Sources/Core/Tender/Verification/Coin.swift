/// Everything a verified proof establishes about one coin.
public struct Coin: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
        /// The genesis coin of the bundle's note at this index.
        case note(Int)
        /// Output `output` of the bundle's transfer at index `transfer`.
        case transfer(Int, output: Int)
    }

    public let id: CoinID
    public let owner: Address
    public let issuer: Address
    public let asset: Address
    public let amount: Amount
    /// The earliest expiry among the notes it descends from.
    public let expiry: UInt64
    /// Transfers between this coin and its notes (0 for a note's coin).
    public let depth: Int
    public let origin: Origin

    public init(
        id: CoinID, owner: Address, issuer: Address, asset: Address, amount: Amount,
        expiry: UInt64, depth: Int, origin: Origin
    ) {
        self.id = id
        self.owner = owner
        self.issuer = issuer
        self.asset = asset
        self.amount = amount
        self.expiry = expiry
        self.depth = depth
        self.origin = origin
    }
}

/// The result of verifying a proof bundle.
public struct VerifiedBundle: Sendable {
    /// Every coin the bundle creates, by id.
    public let coins: [CoinID: Coin]
    /// Coins the bundle creates and does not spend, in bundle order.
    public let leaves: [Coin]
    /// For each coin the bundle spends, the index of the transfer that spends it.
    public let spentBy: [CoinID: Int]
    /// EIP-712 digests of the bundle's notes, by index.
    public let noteDigests: [Bytes32]
    /// EIP-712 digests of the bundle's transfers, by index.
    public let transferDigests: [Bytes32]
    public let bundle: ProofBundle
}
