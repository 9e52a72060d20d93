import NodeKit
import NodeTestSupport
import Settlement
import Tender
import TenderTestSupport
import Testing

/// Tokens' symbols and decimals, read at sync from the chain (Docs/OPERATIONS.md, "Amounts"):
/// once for each token the vault holds collateral in, kept in the wallet, asked again only
/// while a token has none.
@Suite struct DenominationSyncTests {
    let node = Node()
    var world: World { node.world }
    let usdc = try! Address("0x00000000000000000000000000000000000000c1")
    let plain = try! Address("0x00000000000000000000000000000000000000c2")

    @Test func eachTokenIsReadOnceAndTheNativeCoinNever() async throws {
        let bob = try node.wallet(world.bobKey)
        let chain = ScriptedChain(vault: world.domain.vault)
        for asset in [Address.zero, usdc, plain] {
            await chain.deposit(100, by: world.issuer, asset: asset, lockedUntil: world.expiry)
        }
        await chain.name(usdc, try Denomination(symbol: "USDC", decimals: 6))
        let engine = SettlementEngine(wallet: bob, chain: chain, clock: node.clock)

        let snapshot = try await engine.refreshCollateral()
        let first = try await engine.readDenominations(of: snapshot)
        #expect(first.map(\.0) == [usdc, plain])
        #expect(first.map(\.1) == [try Denomination(symbol: "USDC", decimals: 6), nil])
        #expect(
            try bob.tokenDenominations() == [usdc: try Denomination(symbol: "USDC", decimals: 6)])

        // Known now: not asked again. A token without them is asked at each reading.
        let again = try await engine.readDenominations(of: snapshot)
        #expect(again.map(\.0) == [plain])
        #expect(await chain.unitReads == [usdc, plain, plain])

        // What people read: the token's own, the native coin's as configured, else base units.
        let units = Denominations(
            nativeCoin: try Denomination(symbol: "ETH", decimals: 18),
            tokens: try bob.tokenDenominations())
        // A token's amount carries its address: any contract may call itself USDC.
        let short = "\(usdc.checksummed.prefix(6))…\(usdc.checksummed.suffix(4))"
        #expect(units.format(2_500_000, of: usdc) == "2.50 USDC (\(short))")
        #expect(units.format(250, of: plain) == "250 base units of \(plain)")
        #expect(units.format(10_000_000_000_000_000, of: .zero) == "0.01 ETH")
        #expect(try units.parse("2.5", of: usdc, field: "amount") == 2_500_000)
        #expect(try units.parse("250", of: plain, field: "amount") == 250)
        #expect(throws: NodeError.self) { try units.parse("2.5", of: plain, field: "amount") }
        #expect(throws: NodeError.self) { try units.parse("0", of: usdc, field: "amount") }
    }

    @Test func aSyncRunReportsWhatItRead() async throws {
        let bob = try node.wallet(world.bobKey)
        let chain = ScriptedChain(vault: world.domain.vault)
        await chain.deposit(100, by: world.issuer, asset: usdc, lockedUntil: world.expiry)
        await chain.name(usdc, try Denomination(symbol: "USDC", decimals: 6))
        let events = EventLog()
        _ = try await SettlementEngine(wallet: bob, chain: chain, clock: node.clock).run(
            passes: 1, pause: .zero, events: { events.add($0) })
        let named = events.all.compactMap { event -> String? in
            guard case .denomination(let asset, let denomination) = event else { return nil }
            return "\(asset) \(denomination?.description ?? "none")"
        }
        #expect(named == ["\(usdc) USDC (6 decimals)"])
    }
}
