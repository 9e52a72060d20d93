import NodeKit
import NodeTestSupport
import Settlement
import Tender
import TenderTestSupport
import Testing

/// A redeem (or fraud proof) that stays out of every block: replaced with higher fees after
/// `replaceAfter`, recorded before it is sent; the one of a nonce's transactions that is
/// mined wins; a nonce another transaction took drops it and its coins go out again.
@Suite struct StuckTransactionTests {
    let node = Node()
    var world: World { node.world }

    /// An engine reading the clock `seconds` after the node's.
    func engine(
        _ wallet: Wallet, _ chain: ScriptedChain, after seconds: UInt64 = 0
    )
        -> SettlementEngine
    {
        var engine = SettlementEngine(
            wallet: wallet, chain: chain, clock: FixedClock(node.clock.now() + seconds),
            confirmations: 1)
        engine.replaceAfter = 60
        return engine
    }

    @Test func anUnminedRedeemIsSentAgainUntilItWaitedLongEnoughThenReplaced() async throws {
        let alice = try node.fundedAlice([10, 20])
        let chain = ScriptedChain(vault: world.domain.vault)
        _ = try await engine(alice, chain).pass()
        let stuck = try #require(try alice.openRedeems().first)

        // Before `replaceAfter`: the same bytes again.
        _ = try await engine(alice, chain, after: 59).pass()
        #expect(await chain.sent == [stuck.raw, stuck.raw])

        let events = EventLog()
        #expect(try await engine(alice, chain, after: 60).pass { events.add($0) } == 1)
        let open = try alice.openRedeems()
        let replacement = try #require(open.first)
        #expect(open.count == 1 && replacement.hash != stuck.hash)
        #expect(replacement.nonce == stuck.nonce && replacement.coins == stuck.coins)
        #expect(try alice.redeemTransaction(stuck.hash)?.state == .replaced)
        #expect(events.all.contains(.replaced(tx: stuck.hash, by: replacement.hash)))
        #expect(await chain.sent.last == replacement.raw)
        #expect(await chain.signed == 1)  // a replacement, not a new batch

        await chain.mine(replacement.hash, fates: stuck.coins.map { ($0, .redeemed(1)) })
        #expect(try await engine(alice, chain, after: 61).pass() == 0)
        #expect(try alice.states(of: stuck.coins) == [.redeemed, .redeemed])
    }

    @Test func theReplacedTransactionMinedAfterAllWins() async throws {
        let alice = try node.fundedAlice([10])
        let chain = ScriptedChain(vault: world.domain.vault)
        _ = try await engine(alice, chain).pass()
        let stuck = try #require(try alice.openRedeems().first)
        _ = try await engine(alice, chain, after: 60).pass()
        let replacement = try #require(try alice.openRedeems().first)
        #expect(replacement.hash != stuck.hash)

        // The old fees were enough in the end: the first transaction is the one mined.
        await chain.mine(stuck.hash, fates: [(stuck.coins[0], .redeemed(10))])
        let events = EventLog()
        _ = try await engine(alice, chain, after: 61).pass { events.add($0) }
        #expect(events.all.contains { if case .mined(stuck.hash, _) = $0 { true } else { false } })
        #expect(try alice.redeemTransaction(replacement.hash)?.state == .replaced)
        #expect(try await engine(alice, chain, after: 62).pass() == 0)
        #expect(try alice.redeemTransaction(stuck.hash)?.state == .final)
        #expect(try alice.states(of: stuck.coins) == [.redeemed])
    }

    @Test func aReplacementRecordedButNotSentIsSentAfterARestart() async throws {
        let alice = try node.fundedAlice([10])
        let chain = ScriptedChain(vault: world.domain.vault)
        _ = try await engine(alice, chain).pass()
        let stuck = try #require(try alice.openRedeems().first)
        await chain.failSends(1)
        await #expect(throws: NodeError.self) {
            _ = try await engine(alice, chain, after: 60).pass()
        }
        let replacement = try #require(try alice.openRedeems().first)
        #expect(replacement.hash != stuck.hash)

        // Signed 0 s ago by the restarted run's clock: the recorded bytes go out, unchanged.
        _ = try await engine(alice, chain, after: 61).pass()
        #expect(await chain.sent.last == replacement.raw)
        #expect(await chain.replacements == 1)
    }

    @Test func aNonceTakenByAnotherTransactionDropsTheRedeemAndItsCoinsGoOutAgain() async throws {
        let alice = try node.fundedAlice([10, 20])
        let chain = ScriptedChain(vault: world.domain.vault)
        _ = try await engine(alice, chain).pass()
        let dropped = try #require(try alice.openRedeems().first)
        #expect(dropped.nonce == 0)

        // The key signed something else with nonce 0 (outside this wallet), and it was mined.
        await chain.takeNonces(upTo: 1)
        let events = EventLog()
        #expect(try await engine(alice, chain, after: 1).pass { events.add($0) } == 1)
        #expect(events.all.contains(.dropped(tx: dropped.hash, coins: 2)))
        #expect(try alice.redeemTransaction(dropped.hash)?.state == .reverted)
        let next = try #require(try alice.openRedeems().first)
        #expect(next.nonce == 1 && Set(next.coins) == Set(dropped.coins))

        await chain.mine(next.hash, fates: next.coins.map { ($0, .redeemed(1)) })
        #expect(try await engine(alice, chain, after: 2).pass() == 0)
        #expect(try alice.states(of: dropped.coins) == [.redeemed, .redeemed])
    }
}

extension FraudProofSubmissionTests {
    /// As a redeem: replaced when stuck, dropped (and signed anew) when its nonce went to
    /// another transaction.
    @Test func aStuckProofIsReplacedAndADroppedOneIsSignedAnew() async throws {
        let (bob, coin) = try bobWithEvidence()
        let chain = ScriptedChain(vault: world.domain.vault)
        func engine(after seconds: UInt64) -> SettlementEngine {
            var engine = SettlementEngine(
                wallet: bob, chain: chain, clock: FixedClock(node.clock.now() + seconds))
            engine.replaceAfter = 60
            return engine
        }
        try await bobLoses(bob, on: chain, engine(after: 0), EventLog())
        let first = try #require(try bob.fraudProofs()[coin])
        #expect(first.nonce == 1)

        let events = EventLog()
        try await engine(after: 60).submitFraudProofs { events.add($0) }
        let replacement = try #require(try bob.fraudProofs()[coin])
        #expect(replacement.hash != first.hash && replacement.nonce == 1)
        #expect(events.all == [.replaced(tx: first.hash, by: replacement.hash)])
        #expect(await chain.sent.last == replacement.raw)

        await chain.takeNonces(upTo: 2)
        try await engine(after: 61).submitFraudProofs { events.add($0) }
        #expect(events.all.last == .dropped(tx: replacement.hash, coins: 0))
        #expect(try bob.fraudProofs()[coin] == nil)
        try await engine(after: 62).submitFraudProofs()
        let anew = try #require(try bob.fraudProofs()[coin])
        #expect(anew.nonce == 2)
        #expect(await chain.fraudProofsSigned == [coin, coin])
    }
}
