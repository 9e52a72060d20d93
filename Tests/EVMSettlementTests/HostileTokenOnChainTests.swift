import BigInt
import ChainTestSupport
import DevTools
import EVM
import EVMSettlement
import NodeKit
import Secp256k1
import Settlement
import Tender
import TenderTestSupport
import Testing

extension SettlementOnChainTests {
    /// A token that refuses its payout (paused) in Bob's batch beside an honest native coin:
    /// the batch settles, both coins redeemed, the token's payout owed to Bob's key; while it
    /// stays paused the claim is refused before any gas is spent, and once it pays again the
    /// node claims it and Bob holds the tokens.
    @Test func aTokenThatRefusesItsPayoutIsOwedAndClaimedOnceItPays() async throws {
        let (vault, issuerSender) = try await fundedVault(collateral: 1_000_000 * .gwei)
        let code = try DevChain.compile(
            DevChain.root.appendingPathComponent("Contracts/tests/contracts/HostileToken.vy"))
        let token = try #require(
            try await confirmed(try await issuerSender.send(to: nil, data: code).hash)
                .contractAddress)
        func call(_ target: Address, _ data: [UInt8]) async throws {
            _ = try await confirmed(try await issuerSender.send(to: target, data: data).hash)
        }
        func paused(_ on: Bool) async throws {
            try await call(token, ABI.call("setPaused(bool)", [.bool(on)]))
        }
        try await call(
            token, ABI.call("mint(address,uint256)", [.address(devAccount), .uint(5_000)]))
        try await call(
            token, ABI.call("approve(address,uint256)", [.address(vault), .uint(5_000)]))
        try await call(vault, VaultCalls.deposit(asset: token, amount: 5_000))

        let bobKey = PrivateKey.generate()
        let bob = Address(publicKey: bobKey.publicKey)
        _ = try await confirmed(
            try await issuerSender.send(to: bob, value: 1_000_000_000 * .gwei).hash)
        let domain = Domain(chainID: DevChain.chainID, vault: vault)
        let clock = SystemClock()
        let (wallet, nativeCoins) = try holding(
            count: 1, of: 2_000_000_000, by: bobKey, in: domain, clock: clock)
        var random = SystemRandomNumberGenerator()
        let (_, tokenNotes) = try Issuer(key: devKey, domain: domain).issue(
            to: bob, amount: 300, count: 1, asset: token, expiry: clock.now() + 86_400,
            using: &random)
        let tokenCoins = try wallet.receive(tokenNotes, key: bobKey, now: clock.now()).credited
            .map(\.id)

        try await paused(true)
        let chain = EVMSettlementChain(rpc: rpc, chainID: DevChain.chainID, key: bobKey)
        let engine = SettlementEngine(wallet: wallet, chain: chain, clock: clock, confirmations: 1)
            .redeemingDust()
        let seen = Seen()
        #expect(try await engine.run(passes: 20, pause: .milliseconds(100)) { seen.add($0) } == 0)
        let states = try wallet.coinStates()
        #expect((nativeCoins + tokenCoins).map { states[$0] } == [.redeemed, .redeemed])
        #expect(
            seen.events.contains {
                if case .payoutDeferred(_, let deferred) = $0 {
                    deferred == .init(asset: token, amount: 300, owed: 300)
                } else {
                    false
                }
            })
        #expect(try await chain.owed(vault: vault, assets: [token]) == [token: 300])

        // Still paused: the claim is refused by its simulation, nothing sent.
        let refused = Seen()
        _ = try await engine.run(passes: 1, pause: .zero) { refused.add($0) }
        #expect(
            refused.events.contains {
                if case .stillOwed(token, 300, _) = $0 { true } else { false }
            })
        #expect(try await chain.owed(vault: vault, assets: [token]) == [token: 300])

        try await paused(false)
        let claimed = Seen()
        _ = try await engine.run(passes: 1, pause: .zero) { claimed.add($0) }
        let claim = try #require(
            claimed.events.compactMap {
                if case .claimSent(token, 300, let tx) = $0 { tx } else { nil }
            }.first)
        _ = try await confirmed(claim)
        #expect(try await chain.owed(vault: vault, assets: [token]).isEmpty)
        let balance = try await rpc.call(
            CallRequest(to: token, data: ABI.call("balanceOf(address)", [.address(bob)])))
        #expect(try ABI.decode([.uint256], from: balance) == [.uint(300)])
    }
}
