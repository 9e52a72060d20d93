import AsyncHTTPClient
import DevTools
import EVM
import NodeKit
import Secp256k1
import Settlement
import Tender

/// One `tender sync`: the node's wallets settled on their chains, each at its chain registry
/// entry's endpoints (or `rpc`, for the chain it serves), the chains side by side. Planned
/// first (what is settled where, and how many coins), then settled; `shutdown` when done.
public struct Settling: Sendable {
    public let wallets: NodeWallets
    public let registry: ChainRegistry
    public let clock: any WallClock
    /// Settle on this endpoint's chain only, through it.
    public let rpc: String?
    /// Settle on this chain only.
    public let chainID: UInt64?
    /// Blocks on top of a redeem (its own included) before its coins are settled; nil: the
    /// registry's.
    public let confirmations: UInt64?
    /// What coins worth less than their gas do; nil: the registry's (else they wait).
    public let dust: DustPolicy?
    /// Which held coins go out in new redeems.
    public let redeem: RedeemPolicy
    private let client = EthereumRPC.makeHTTPClient()

    public init(
        wallets: NodeWallets, registry: ChainRegistry, clock: any WallClock, rpc: String?,
        chainID: UInt64?, confirmations: UInt64?, dust: DustPolicy? = nil,
        redeem: RedeemPolicy = .all
    ) {
        self.wallets = wallets
        self.registry = registry
        self.clock = clock
        self.rpc = rpc
        self.chainID = chainID
        self.confirmations = confirmations
        self.dust = dust
        self.redeem = redeem
    }

    public func shutdown() async { try? await client.shutdown() }

    /// Which wallets settle where.
    public struct Plan: Sendable {
        let chains: [ChainWallets]

        /// The coins it settles: those held unspent and those already in redeems.
        public var coinsToSettle: Int {
            chains.flatMap(\.wallets).reduce(0) {
                let tally = ChainWallets.tally(of: $1.wallet)
                return $0 + (tally[.unspent] ?? 0) + (tally[.redeeming] ?? 0)
            }
        }

        /// Whether there is more than one wallet: each line then names its chain.
        var labelled: Bool { chains.count > 1 || chains.contains { $0.wallets.count > 1 } }
    }

    /// With `rpc`, the wallets of the chain it serves; else each wallet at its registry
    /// entry's endpoints (the dev chain for an unlisted home domain). A wallet of another
    /// unlisted domain waits; `unlisted` hears of it.
    public func plan(unlisted: (Domain) -> Void) async throws -> Plan {
        var chosen = wallets.all.filter { chainID == nil || $0.domain.chainID == chainID }
        guard !chosen.isEmpty else {
            throw NodeError(.usage("this node holds no coins on chain \(chainID ?? 0)"))
        }
        if let rpc {
            // The endpoint first: unreachable, or serving another chain, is said before anything.
            let served = try await servedChainID(at: EthereumRPC(endpoint: rpc, client: client))
            chosen = chosen.filter { $0.domain.chainID == served }
            guard !chosen.isEmpty else {
                let held = Set(wallets.all.map(\.domain.chainID)).sorted().map(String.init)
                throw NodeError(
                    .usage(
                        "\(rpc) serves chain \(served); this node's coins are backed on chain \(held.joined(separator: ", "))"
                    ))
            }
        }
        return Plan(
            chains: ChainWallets.plan(
                chosen, home: wallets.home.domain, registry: registry, rpc: rpc,
                confirmations: confirmations, dust: dust, homeEndpoint: NodeDefaults.rpc,
                unlisted: unlisted))
    }

    /// What one wallet's settlement came to.
    public struct Outcome: Sendable {
        /// The states a run reports coins in.
        public static let reported: [CoinState] = [
            .redeemed, .redeeming, .conflicted, .expired, .unspent,
        ]
        public let domain: Domain
        /// Its place among its chain's wallets (they settle one after the other).
        let order: Int
        /// The endpoint it settled through (nil: none answered).
        public let endpoint: String?
        /// Redeem transactions still open.
        public let open: Int
        /// How many of the wallet's coins are in each state after the run.
        public let tally: [CoinState: Int]
        public let failure: (any Error)?

        public func count(_ state: CoinState) -> Int { tally[state] ?? 0 }
    }

    /// Every chain side by side; each chain's wallets one after the other (one key, one
    /// nonce sequence per chain). `events` hears each with a prefix naming its chain when
    /// there is more than one wallet.
    public func settle(
        _ plan: Plan, key: PrivateKey, passes: Int, pause: Duration, replaceAfter: UInt64,
        events: @escaping @Sendable (_ prefix: String, SettlementEngine.Event) -> Void
    ) async -> [Outcome] {
        let labelled = plan.labelled
        return await ChainWallets.runAll(
            plan.chains, key: key, client: client, clock: clock, passes: passes, pause: pause,
            replaceAfter: replaceAfter, redeem: redeem
        ) { chainID, event in events(labelled ? "chain \(chainID): " : "", event) }
    }
}
