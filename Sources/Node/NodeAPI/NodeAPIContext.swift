import NodeKit
import Tender

/// What the API serves, with no HTTP in it: the node's wallets, its clock, the live state the node's services keep, and the actions it can be asked for.
public struct NodeAPIContext: Sendable {
    /// The node's wallets (a node paid in another domain has one more), read at each call.
    public let wallets: @Sendable () throws(NodeError) -> NodeWallets
    public let clock: any WallClock
    public let state: NodeState
    public let feed: PaymentFeed
    /// Runs a sync pass now (the sync loop's next pass, brought forward).
    public let syncNow: @Sendable () async -> Void
    /// The bearer token every /api/ call must carry.
    public let token: String
    /// The key and limits for payments the node makes on its own; nil: it makes none.
    public let payer: AutomaticPayer?
    /// The series `/metrics` serves.
    public let metrics: NodeMetrics
    /// Where the requests it issues go to be offered over the air.
    public let offers: any RequestOffering
    /// How a wallet's amounts read, for display only: never fails
    /// (`NodeHost.displayDenominations(for:)`).
    public let denominations: @Sendable (Wallet) -> Denominations
    /// What the point-of-sale page charges in: the coin of a wallet's chain, for `/api/status`
    /// (polled by every till: the chain's coin alone, not the wallet's tokens too).
    public let charge: @Sendable (Wallet) -> Denomination
    /// Where Cashu tokens go (Docs/CASHU.md); nil: the node takes none.
    public let cashu: CashuPayee?
    /// The names a request's Host may carry (IP literals and localhost always may).
    public let hosts: HostAllowList
    /// What connections and event streams may hold of the node.
    public let limits: ConnectionLimits

    public init(
        wallets: @escaping @Sendable () throws(NodeError) -> NodeWallets, clock: any WallClock,
        state: NodeState, feed: PaymentFeed, token: String, payer: AutomaticPayer? = nil,
        metrics: NodeMetrics = NodeMetrics(), offers: any RequestOffering = NoRequestOffering(),
        denominations: @escaping @Sendable (Wallet) -> Denominations = { _ in Denominations() },
        charge: (@Sendable (Wallet) -> Denomination)? = nil,
        hosts: HostAllowList = HostAllowList(), limits: ConnectionLimits = ConnectionLimits(),
        cashu: CashuPayee? = nil, syncNow: @escaping @Sendable () async -> Void
    ) {
        self.cashu = cashu
        self.hosts = hosts
        self.limits = limits
        self.wallets = wallets
        self.clock = clock
        self.state = state
        self.feed = feed
        self.token = token
        self.payer = payer
        self.metrics = metrics
        self.offers = offers
        self.denominations = denominations
        self.charge = charge ?? { denominations($0).nativeCoin }
        self.syncNow = syncNow
    }
}
