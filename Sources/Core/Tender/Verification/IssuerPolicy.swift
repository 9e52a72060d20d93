/// Which issuers' coins this node accepts offline (Docs/PROTOCOL.md).
public enum IssuerPolicy: Sendable, Hashable {
    /// Operator mode: only these issuers.
    case trusted(Set<Address>)
    /// Open mode: any issuer, up to its collateral in the last synced snapshot minus what this
    /// node has already accepted from it.
    case exposureCap(remaining: [IssuerAsset: Amount])
    /// Both: coins of `trusted` issuers as in operator mode; any other issuer's coins only
    /// while its collateral is locked until at least their expiry, and up to `remaining`.
    case trustedOrCollateralized(
        trusted: Set<Address>, remaining: [IssuerAsset: Amount], lockedUntil: [Address: UInt64])
    /// Every issuer: the payer's view of its own payment (whom the payee trusts is the
    /// payee's business).
    case anyIssuer

    /// Throws unless every credited coin is acceptable under this policy.
    public func check(_ credits: [Coin]) throws(ProtocolError) {
        switch self {
        case .anyIssuer: return
        case .trusted(let issuers):
            for coin in credits where !issuers.contains(coin.issuer) {
                throw ProtocolError(.untrustedIssuer(coin.issuer))
            }
        case .exposureCap(let remaining):
            try Self.cap(credits, by: remaining)
        case .trustedOrCollateralized(let trusted, let remaining, let lockedUntil):
            let capped = credits.filter { !trusted.contains($0.issuer) }
            for coin in capped {
                guard let until = lockedUntil[coin.issuer],
                    remaining.keys.contains(where: { $0.issuer == coin.issuer })
                else { throw ProtocolError(.untrustedIssuer(coin.issuer)) }
                guard until >= coin.expiry else {
                    throw ProtocolError(
                        .collateralUnlocked(
                            issuer: coin.issuer, lockedUntil: until, expiry: coin.expiry))
                }
            }
            try Self.cap(capped, by: remaining)
        }
    }

    private static func cap(
        _ credits: [Coin], by remaining: [IssuerAsset: Amount]
    ) throws(ProtocolError) {
        var requested: [IssuerAsset: Amount] = [:]
        for coin in credits {
            let key = IssuerAsset(issuer: coin.issuer, asset: coin.asset)
            guard let sum = checkedSum([requested[key, default: 0], coin.amount]) else {
                throw ProtocolError(.amountOverflow("exposure to issuer \(coin.issuer)"))
            }
            requested[key] = sum
        }
        for (key, amount) in requested.sorted(by: { $0.key < $1.key }) {
            let left = remaining[key] ?? 0
            guard amount <= left else {
                throw ProtocolError(
                    .exposureExceeded(
                        issuer: key.issuer, asset: key.asset, requested: amount, remaining: left
                    ))
            }
        }
    }
}

/// Collateral and exposure are tracked per issuer and asset.
public struct IssuerAsset: Hashable, Comparable, Sendable {
    public let issuer: Address
    public let asset: Address

    public init(issuer: Address, asset: Address) {
        self.issuer = issuer
        self.asset = asset
    }

    public static func < (lhs: IssuerAsset, rhs: IssuerAsset) -> Bool {
        (lhs.issuer, lhs.asset) < (rhs.issuer, rhs.asset)
    }
}
