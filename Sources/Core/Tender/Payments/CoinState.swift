/// Where a coin this wallet owns or owned stands. Settlement adds its own moves (redeeming,
/// redeemed, conflicted, expired) as `CoinTransition`s.
public enum CoinState: String, Sendable, Hashable, CaseIterable {
    /// Change of a payment not yet handed over: not the payer's to spend until it is.
    case incoming
    /// The wallet's to pay with (or to settle).
    case unspent
    /// Chosen by a payment that has not left the node.
    case reserved
    /// Consumed by a transfer that may have left: irrevocable.
    case spent
    /// Settlement: in a redeem transaction, redeemed on chain, refused as a double spend, or
    /// past its expiry unredeemed.
    case redeeming, redeemed, conflicted, expired
}

/// Where a coin came from.
public enum CoinSource: String, Sendable, Hashable, CaseIterable {
    /// Paid to this wallet (or issued to it).
    case received
    /// Change of one of this wallet's own payments.
    case change
}

/// The moves a coin makes, each allowed only from the states it names: the store applies a
/// move as one guarded update, so a coin in any other state is left alone (and a caller that
/// needs every coin moved checks the count).
public enum CoinTransition: Sendable, CaseIterable {
    /// A payment chose the coin.
    case reserve
    /// Its payment was cancelled before leaving the node (or handed over, but its transport
    /// proved nothing left).
    case release
    /// Its payment may have left: the transfer consuming it is irrevocable.
    case spend
    /// The change of a payment that may have left becomes spendable.
    case releaseChange
    /// Settlement: a signed redeem transaction names the coin (recorded before it is sent).
    case redeem
    /// The vault paid it.
    case redeemed
    /// The vault refused it as spent elsewhere (a double spend, with evidence).
    case conflict
    /// Past its expiry: the vault no longer pays it (before or in a redeem).
    case expire
    /// Its redeem transaction failed (reverted, dropped, or the vault asked to try later):
    /// the coin waits for the next batch.
    case retryRedeem

    public var from: Set<CoinState> {
        switch self {
        case .reserve: [.unspent]
        case .release: [.reserved, .spent]
        case .spend: [.reserved]
        case .releaseChange: [.incoming]
        case .redeem: [.unspent]
        case .redeemed, .conflict, .retryRedeem: [.redeeming]
        case .expire: [.unspent, .redeeming]
        }
    }

    public var to: CoinState {
        switch self {
        case .reserve: .reserved
        case .release, .releaseChange, .retryRedeem: .unspent
        case .spend: .spent
        case .redeem: .redeeming
        case .redeemed: .redeemed
        case .conflict: .conflicted
        case .expire: .expired
        }
    }
}
