import NodeKit
import Settlement
import Tender
import TenderTestSupport
import Testing

@testable import NodeRuntime

/// Which wallets settle where: grouped by chain, each at its registry entry's endpoints and
/// confirmations; the home domain at the default endpoint when unlisted; another unlisted
/// domain left out and named; an endpoint given settles everything through it.
@Suite struct ChainPlanTests {
    let home = Domain(chainID: 31337, vault: Address(publicKey: key(0x51).publicKey))
    let sameChain = Domain(chainID: 31337, vault: Address(publicKey: key(0x52).publicKey))
    let otherChain = Domain(chainID: 5, vault: Address(publicKey: key(0x53).publicKey))
    let unlisted = Domain(chainID: 7, vault: Address(publicKey: key(0x54).publicKey))

    func wallet(_ domain: Domain) throws -> Wallet {
        let folder = try TemporaryDirectory("chain-plan")
        return try Wallet.create(
            at: folder.file("wallet.sqlite"), address: Address(publicKey: key(0x61).publicKey),
            domain: domain)
    }

    /// A pass's failure says its amounts of the chain's coin in that coin, as the registry
    /// names it (in /api/status and the log), not in wei.
    @Test func aPassFailureSaysGasInTheChainsCoin() throws {
        let registry = try ChainRegistry([
            ChainEntry(
                domain: sameChain, endpoints: ["http://a:1"],
                nativeCoin: try Denomination(symbol: "ETH", decimals: 18))
        ])
        let account = Address(publicKey: key(0x61).publicKey)
        let error = NodeError(
            .noGas(
                account: account, chainID: 31337, needed: 2_500_000_000_000_000,
                held: 1_000_000_000_000_000))
        let said = ChainPass.said(error, on: sameChain, registry)
        #expect(
            said.contains("no gas: \(account) holds 0.001 ETH on chain 31337")
                && said.contains("may cost up to 0.0025 ETH"), "\(said)")
    }

    @Test func walletsAreGroupedByChainAtTheirEntriesEndpoints() throws {
        let wallets = try [home, sameChain, otherChain, unlisted].map(wallet)
        let registry = try ChainRegistry([
            ChainEntry(domain: sameChain, endpoints: ["http://a:1"], confirmations: 3),
            ChainEntry(domain: otherChain, endpoints: ["http://b:2", "http://c:3"], rateLimit: 4),
        ])
        var left: [Domain] = []
        let plan = ChainWallets.plan(
            wallets, home: home, registry: registry, homeEndpoint: "http://home:8545"
        ) { left.append($0) }
        #expect(left == [unlisted])
        #expect(plan.map(\.chainID) == [5, 31337])
        #expect(plan[0].endpoints == ["http://b:2", "http://c:3"] && plan[0].rateLimit == 4)
        #expect(plan[0].wallets.map(\.wallet.domain) == [otherChain])
        // The home domain is unlisted: its chain is reached at the listed wallet's endpoint
        // first, then at the default.
        #expect(plan[1].wallets.map(\.wallet.domain) == [home, sameChain])
        #expect(plan[1].endpoints == ["http://a:1", "http://home:8545"])
        #expect(plan[1].wallets.map(\.confirmations) == [ChainEntry.defaultConfirmations, 3])
    }

    @Test func anEndpointGivenSettlesEveryWalletThroughIt() throws {
        let wallets = try [home, unlisted].map(wallet)
        let plan = ChainWallets.plan(
            wallets, home: home, registry: try ChainRegistry(), rpc: "http://given:1",
            confirmations: 1, homeEndpoint: "http://home:8545")
        #expect(plan.map(\.endpoints) == [["http://given:1"], ["http://given:1"]])
        #expect(plan.flatMap(\.wallets).map(\.confirmations) == [1, 1])
        #expect(plan.allSatisfy { $0.rateLimit == nil })
    }
}
