import AsyncHTTPClient
import Codecs
import EVM
import EVMSettlement
import NodeKit
import Secp256k1
import Settlement
import Tender

/// The wallets of one chain and where to reach it.
struct ChainWallets: Sendable {
    let chainID: UInt64
    private(set) var endpoints: [String]
    private(set) var rateLimit: Double?
    var wallets: [(wallet: Wallet, confirmations: UInt64, dust: DustPolicy, units: Denominations)] =
        []

    init(chainID: UInt64, endpoints: [String], rateLimit: Double?) {
        self.chainID = chainID
        self.endpoints = endpoints
        self.rateLimit = rateLimit
    }

    /// Which wallets settle where, and how they weigh dust (`dust`, else the entry's): each at
    /// its registry entry's endpoints (`rpc` instead, when given; the home domain, when not listed, at `homeEndpoint`), grouped by chain: a chain's
    /// endpoints are every listed one of its wallets', then the default. A wallet of an
    /// unlisted domain other than home is left out and named to `unlisted`.
    static func plan(
        _ wallets: [Wallet], home: Domain, registry: ChainRegistry, rpc: String? = nil,
        confirmations: UInt64? = nil, dust: DustPolicy? = nil, homeEndpoint: String,
        unlisted: (Domain) -> Void = { _ in }
    ) -> [ChainWallets] {
        var byChain: [UInt64: ChainWallets] = [:]
        var reachedByDefault: Set<UInt64> = []
        for wallet in wallets {
            let listed = registry.entry(for: wallet.domain)
            guard listed != nil || wallet.domain == home || rpc != nil else {
                unlisted(wallet.domain)
                continue
            }
            let depth = confirmations ?? listed?.confirmations ?? ChainEntry.defaultConfirmations
            var chain =
                byChain[wallet.domain.chainID]
                ?? ChainWallets(chainID: wallet.domain.chainID, endpoints: [], rateLimit: nil)
            if let rpc {
                chain.endpoints = [rpc]
            } else if let listed {
                chain.endpoints += listed.endpoints.filter { !chain.endpoints.contains($0) }
                chain.rateLimit = chain.rateLimit ?? listed.rateLimit
            } else {
                reachedByDefault.insert(wallet.domain.chainID)
            }
            // How its amounts read in what the engine says (the registry's coin, the tokens
            // the wallet read at earlier syncs).
            let units = Denominations(
                nativeCoin: registry.nativeCoin(
                    chainID: wallet.domain.chainID, preferring: wallet.domain),
                tokens: (try? wallet.tokenDenominations()) ?? [:])
            chain.wallets.append((wallet, depth, dust ?? listed?.dust ?? .wait, units))
            byChain[wallet.domain.chainID] = chain
        }
        // The default after every listed endpoint of the chain.
        for chainID in reachedByDefault
        where byChain[chainID]?.endpoints.contains(homeEndpoint) == false {
            byChain[chainID]?.endpoints.append(homeEndpoint)
        }
        return byChain.keys.sorted().map { byChain[$0]! }
    }

    /// Every chain of `chains` side by side, each chain's wallets one after the other (one
    /// key, one nonce sequence per chain), by chain and order. `events` hears each event with
    /// the chain's id.
    static func runAll(
        _ chains: [ChainWallets], key: PrivateKey, client: HTTPClient, clock: any WallClock,
        passes: Int, pause: Duration, passesBefore: Int = 0, replaceAfter: UInt64,
        redeem: RedeemPolicy,
        events: @escaping @Sendable (_ chainID: UInt64, SettlementEngine.Event) -> Void
    ) async -> [Settling.Outcome] {
        await withTaskGroup(of: [Settling.Outcome].self) { group in
            for chain in chains {
                group.addTask {
                    await chain.run(
                        key: key, client: client, clock: clock, passes: passes, pause: pause,
                        passesBefore: passesBefore, replaceAfter: replaceAfter, redeem: redeem
                    ) { events(chain.chainID, $0) }
                }
            }
            var results: [Settling.Outcome] = []
            for await some in group { results += some }
            return results.sorted { ($0.domain.chainID, $0.order) < ($1.domain.chainID, $1.order) }
        }
    }

    /// Connects (the first endpoint that answers with this chain's id), then settles each
    /// wallet; a failure is this chain's result, not the other chains'. `passesBefore`: as
    /// `SettlementEngine.run`'s.
    func run(
        key: PrivateKey, client: HTTPClient, clock: any WallClock, passes: Int, pause: Duration,
        passesBefore: Int = 0, replaceAfter: UInt64, redeem: RedeemPolicy,
        events: @escaping @Sendable (SettlementEngine.Event) -> Void
    ) async -> [Settling.Outcome] {
        let connected: EthereumRPC
        do { connected = try await connect(client: client) } catch {
            return wallets.enumerated().map { index, entry in
                Settling.Outcome(
                    domain: entry.wallet.domain, order: index, endpoint: nil, open: 0,
                    tally: Self.tally(of: entry.wallet), failure: error)
            }
        }
        // One chain adapter for every wallet here: same endpoint, same key.
        let chain = EVMSettlementChain(rpc: connected, chainID: chainID, key: key)
        var results: [Settling.Outcome] = []
        for (index, entry) in wallets.enumerated() {
            var open = 0
            var failure: (any Error)?
            do {
                // An address without the vault would read as a vault holding nothing: the
                // failure says what is there instead, and the other wallets go on.
                let identity: VaultIdentity
                do { identity = try await connected.vaultIdentity(of: entry.wallet.domain) } catch {
                    throw NodeError(.io("\(error)"))
                }
                guard identity == .tenderVault else {
                    throw NodeError(
                        .usage(
                            "there is \(identity) at \(entry.wallet.domain.vault) on chain \(chainID) (\(RedactedURL.text(connected.endpoint))): the coins of that vault cannot be settled there"
                        ), resolvedBy: .listChains)
                }
                var engine = SettlementEngine(
                    wallet: entry.wallet, chain: chain, clock: clock,
                    confirmations: entry.confirmations)
                engine.replaceAfter = replaceAfter
                engine.dust = entry.dust
                engine.redeem = redeem
                engine.units = entry.units
                engine.nonceFloor =
                    try wallets.map { sibling throws(NodeError) in
                        try sibling.wallet.nextNonce(chainID: chainID, sender: chain.sender) ?? 0
                    }.max() ?? 0
                open = try await engine.run(
                    passes: passes, pause: pause, passesBefore: passesBefore, events: events)
            } catch { failure = error }
            results.append(
                Settling.Outcome(
                    domain: entry.wallet.domain, order: index, endpoint: connected.endpoint,
                    open: open, tally: Self.tally(of: entry.wallet), failure: failure))
        }
        return results
    }

    static func tally(of wallet: Wallet) -> [CoinState: Int] {
        (try? wallet.coinCounts()) ?? [:]
    }

    private func connect(client: HTTPClient) async throws -> EthereumRPC {
        var reasons: [String] = []
        for endpoint in endpoints {
            var rpc = EthereumRPC(endpoint: endpoint, client: client)
            if let rateLimit { rpc.pacer = RequestPacer(requestsPerSecond: rateLimit) }
            do {
                let served = try await rpc.chainID()
                guard served == chainID else {
                    reasons.append("\(RedactedURL.text(endpoint)) serves chain \(served)")
                    continue
                }
                return rpc
            } catch { reasons.append("\(error)") }
        }
        throw NodeError(
            .io("no endpoint of chain \(chainID) answers: \(reasons.joined(separator: "; "))"),
            note: "is the chain's node running?", resolvedBy: .listChains)
    }
}
