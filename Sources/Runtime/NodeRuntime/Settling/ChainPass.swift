import AsyncHTTPClient
import NodeKit
import Secp256k1
import Settlement
import Tender

/// A pass of the node's sync loop on the real chains: every wallet at its chain registry
/// entry's endpoints (the home domain, when not listed, at `homeEndpoint`), the chains side
/// by side.
struct ChainPass: Sendable {
    let wallets: @Sendable () throws(NodeError) -> NodeWallets
    let registry: @Sendable () throws(NodeError) -> ChainRegistry
    let key: PrivateKey
    let client: HTTPClient
    let clock: any WallClock
    let replaceAfter: UInt64
    let homeEndpoint: String
    let redeem: RedeemPolicy

    func callAsFunction(
        passesBefore: Int, events: @escaping @Sendable (SettlementEngine.Event) -> Void
    ) async -> SettlementLoop.Outcome {
        let plan: [ChainWallets]
        let registry: ChainRegistry
        do {
            let wallets = try wallets()
            registry = try self.registry()
            plan = ChainWallets.plan(
                wallets.all, home: wallets.home.domain, registry: registry,
                homeEndpoint: homeEndpoint)
        } catch { return .init(open: 0, failures: [.init(domain: nil, reason: error.description)]) }
        let results = await ChainWallets.runAll(
            plan, key: key, client: client, clock: clock, passes: 1, pause: .zero,
            passesBefore: passesBefore, replaceAfter: replaceAfter, redeem: redeem
        ) { _, event in events(event) }
        return .init(
            open: results.reduce(0) { $0 + $1.open },
            failures: results.compactMap { result in
                result.failure.map {
                    .init(domain: result.domain, reason: Self.said($0, on: result.domain, registry))
                }
            })
    }

    /// `failure` in words, its amounts of the chain's coin in that coin (`0.01 ETH`, not wei).
    static func said(_ failure: any Error, on domain: Domain, _ registry: ChainRegistry) -> String {
        guard let error = failure as? NodeError else { return "\(failure)" }
        let coin = registry.nativeCoin(chainID: domain.chainID, preferring: domain)
        return error.description(in: DenominatedWording(Denominations(nativeCoin: coin)))
    }
}
