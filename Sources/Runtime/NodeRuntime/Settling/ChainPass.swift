import AsyncHTTPClient
import NodeKit
import Secp256k1
import Settlement

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
        do {
            let wallets = try wallets()
            plan = ChainWallets.plan(
                wallets.all, home: wallets.home.domain, registry: try registry(),
                homeEndpoint: homeEndpoint)
        } catch { return .init(open: 0, failures: [.init(domain: nil, reason: error.description)]) }
        let results = await ChainWallets.runAll(
            plan, key: key, client: client, clock: clock, passes: 1, pause: .zero,
            passesBefore: passesBefore, replaceAfter: replaceAfter, redeem: redeem
        ) { _, event in events(event) }
        return .init(
            open: results.reduce(0) { $0 + $1.open },
            failures: results.compactMap { result in
                result.failure.map { .init(domain: result.domain, reason: "\($0)") }
            })
    }
}
