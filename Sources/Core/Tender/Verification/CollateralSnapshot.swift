/// Issuers' collateral in the vault as a node last read it from the chain: what open-mode
/// acceptance caps each issuer's coins by (Docs/PROTOCOL.md, "Issuer acceptance").
public struct CollateralSnapshot: Sendable, Hashable {
    /// The block the figures were read at.
    public var block: UInt64
    /// When the node read them (Unix seconds).
    public var takenAt: UInt64
    /// Collateral per issuer and asset (chain figures above `Amount.max` are clamped).
    public var collateral: [IssuerAsset: Amount]
    /// Until when each issuer's collateral is locked (Unix seconds; absent: not locked).
    public var lockedUntil: [Address: UInt64]

    public init(
        block: UInt64, takenAt: UInt64, collateral: [IssuerAsset: Amount],
        lockedUntil: [Address: UInt64]
    ) {
        self.block = block
        self.takenAt = takenAt
        self.collateral = collateral
        self.lockedUntil = lockedUntil
    }

    /// What a node may still accept from each issuer in each asset: its collateral minus
    /// `held`, what the node already holds of it unsettled (never below zero).
    public func remaining(after held: [IssuerAsset: Amount]) -> [IssuerAsset: Amount] {
        var result: [IssuerAsset: Amount] = [:]
        for (key, amount) in collateral {
            let taken = held[key] ?? 0
            result[key] = amount > taken ? amount - taken : 0
        }
        return result
    }
}
