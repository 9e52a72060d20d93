import Tender
import WalletStore

extension Wallet {
    /// Whose coins `receive` accepts now: trusted issuers, and in open mode any issuer with
    /// collateral in the last snapshot, capped by that collateral minus what this wallet
    /// already holds of it (Docs/PROTOCOL.md, "Issuer acceptance").
    public func acceptancePolicy(now: UInt64) throws(NodeError) -> IssuerPolicy {
        let trusted = try trustedIssuers()
        guard try acceptanceMode() == .open, let snapshot = try collateral() else {
            return .trusted(trusted)
        }
        let held = try storing { try store.exposure(now: now) }
        return .trustedOrCollateralized(
            trusted: trusted, remaining: snapshot.remaining(after: held),
            lockedUntil: snapshot.lockedUntil)
    }

    /// The least a payment without a request of this wallet's must bring, per asset (a
    /// stranger's dust, paid to a camera or Bluetooth payee unasked, is refused below it).
    public func unrequestedFloors() throws(NodeError) -> [Address: Amount] {
        try storing { try store.unrequestedFloors() }
    }

    /// Sets the floor of `asset`; nil or zero removes it.
    public func setUnrequestedFloor(_ floor: Amount?, of asset: Address) throws(NodeError) {
        try storing { try store.setUnrequestedFloor(floor, of: asset) }
    }

    /// Whether a payment without a request, in an asset with no floor, is refused (a
    /// stranger's token, say, that would cost gas to redeem).
    public func refusesUnlistedAssets() throws(NodeError) -> Bool {
        try storing { try store.refusesUnlistedAssets() }
    }

    public func setRefusesUnlistedAssets(_ refuses: Bool) throws(NodeError) {
        try storing { try store.setRefusesUnlistedAssets(refuses) }
    }

    public func acceptanceMode() throws(NodeError) -> AcceptanceMode {
        try storing { try store.acceptanceMode() }
    }

    public func setAcceptanceMode(_ mode: AcceptanceMode) throws(NodeError) {
        try storing { try store.setAcceptanceMode(mode) }
    }

    /// The vault's collateral as last synced, nil before the first sync.
    public func collateral() throws(NodeError) -> CollateralSnapshot? {
        try storing { try store.collateral() }
    }

    public func saveCollateral(_ snapshot: CollateralSnapshot) throws(NodeError) {
        try storing { try store.saveCollateral(snapshot) }
    }

    /// The tokens whose symbol and decimals sync read from their contracts.
    public func tokenDenominations() throws(NodeError) -> [Address: Denomination] {
        try storing { try store.denominations() }
    }

    public func saveDenomination(
        _ denomination: Denomination, of asset: Address, readAt: UInt64
    ) throws(NodeError) {
        try storing { try store.saveDenomination(denomination, of: asset, readAt: readAt) }
    }

    /// Issuers whose double spends this wallet keeps evidence of: the vault will be asked to
    /// pay their coins, so the evidence is worth something there.
    func issuersOfInterest(_ policy: IssuerPolicy) -> Set<Address> {
        switch policy {
        case .trusted(let issuers): issuers
        case .trustedOrCollateralized(let trusted, let remaining, _):
            trusted.union(remaining.keys.map(\.issuer))
        case .exposureCap(let remaining): Set(remaining.keys.map(\.issuer))
        case .anyIssuer: []
        }
    }
}
