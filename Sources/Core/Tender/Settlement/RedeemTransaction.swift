/// A redeem transaction about to be sent: signed, and recorded before it leaves the node.
public struct SignedRedeem: Sendable, Equatable {
    public let hash: Bytes32
    public let chainID: UInt64
    public let vault: Address
    public let sender: Address
    public let nonce: UInt64
    public let raw: [UInt8]
    public let coins: [CoinID]

    public init(
        hash: Bytes32, chainID: UInt64, vault: Address, sender: Address, nonce: UInt64,
        raw: [UInt8], coins: [CoinID]
    ) {
        self.hash = hash
        self.chainID = chainID
        self.vault = vault
        self.sender = sender
        self.nonce = nonce
        self.raw = raw
        self.coins = coins
    }
}

/// Where a redeem transaction stands.
public enum RedeemTransactionState: String, Sendable, CaseIterable {
    /// Signed and recorded; sent, or to be sent (again, after a restart: the same bytes).
    case signed
    /// In a block, not yet final (a reorg sends it back to `signed`).
    case mined
    /// Final, its coins settled from the vault's events.
    case final
    /// Reverted, or never to be mined (another transaction took its nonce): its coins wait
    /// for another batch.
    case reverted
    /// Another transaction with the same nonce took its place.
    case replaced
}

/// The moves a redeem transaction makes, each allowed only from the states it names: the
/// store applies a move as one guarded update and refuses it from any other state (a final
/// transaction's coins are never sent back to the queue, say).
public enum RedeemTransition: Sendable, CaseIterable {
    /// In a block (a replaced one may be mined in its replacement's place).
    case mine
    /// Its block left the canonical chain: it is sent again.
    case reorg
    /// A transaction with its nonce and higher fees (or another one mined) took its place.
    case replace
    /// Final: its coins settled as the vault's events say.
    case finalize
    /// Reverted, or dropped (its nonce taken by another transaction of the key).
    case fail

    public var from: Set<RedeemTransactionState> {
        switch self {
        case .mine: [.signed, .replaced]
        case .reorg, .finalize: [.mined]
        case .replace: [.signed]
        case .fail: [.signed, .mined]
        }
    }

    public var to: RedeemTransactionState {
        switch self {
        case .mine: .mined
        case .reorg: .signed
        case .replace: .replaced
        case .finalize: .final
        case .fail: .reverted
        }
    }
}

/// A redeem transaction as the wallet keeps it: as signed, and where it stands.
public struct RedeemTransactionRecord: Sendable, Equatable {
    public let redeem: SignedRedeem
    public let state: RedeemTransactionState
    public let blockNumber: UInt64?
    public let blockHash: Bytes32?
    /// When it was signed (a replacement: when the replacement was).
    public let signedAt: UInt64

    public init(
        redeem: SignedRedeem, state: RedeemTransactionState, blockNumber: UInt64?,
        blockHash: Bytes32?, signedAt: UInt64
    ) {
        self.redeem = redeem
        self.state = state
        self.blockNumber = blockNumber
        self.blockHash = blockHash
        self.signedAt = signedAt
    }

    public var hash: Bytes32 { redeem.hash }
    public var nonce: UInt64 { redeem.nonce }
    /// The signed transaction, byte for byte what was (and is again) sent.
    public var raw: [UInt8] { redeem.raw }
    public var coins: [CoinID] { redeem.coins }
}

/// What became of one coin of a final redeem transaction.
public enum CoinSettlement: Sendable, Equatable {
    case redeemed
    /// Refused as spent elsewhere: the double spend's evidence is recorded apart.
    case conflicted
    case expired
    /// Not paid this time (not in the vault's word): the next batch takes it.
    case retry
    /// The issuer's collateral did not cover it: a later batch takes it, after a hold of its
    /// issuer's asset (each batch would pay gas for the same refusal).
    case uncovered

    /// The coin's move.
    public var transition: CoinTransition {
        switch self {
        case .redeemed: .redeemed
        case .conflicted: .conflict
        case .expired: .expire
        case .retry, .uncovered: .retryRedeem
        }
    }
}

/// An issuer's asset whose redeem reverted in a batch of its own: its coins wait until
/// `until` (a token refusing its payout on a vault that reverts for it, say), and the other
/// coins settle meanwhile.
public struct RedeemHold: Sendable, Equatable {
    /// Why an asset is held back (its raw value names it in the API and `sync --json`).
    public enum Reason: String, Sendable, Equatable {
        /// A batch of it alone reverted.
        case reverted
        /// The vault refused its coins for want of the issuer's collateral.
        case uncovered
    }

    public let issuer: Address
    public let asset: Address
    /// Its coins waiting (unspent).
    public let coins: Int
    /// Unix seconds.
    public let until: UInt64
    public let reason: Reason

    public init(
        issuer: Address, asset: Address, coins: Int, until: UInt64, reason: Reason = .reverted
    ) {
        self.issuer = issuer
        self.asset = asset
        self.coins = coins
        self.until = until
        self.reason = reason
    }

    /// Ten minutes after the first hold, doubling at each, at most a day.
    public static func delay(afterHolds holds: Int) -> UInt64 {
        min(600 << UInt64(min(max(holds, 0), 8)), 86_400)
    }
}
