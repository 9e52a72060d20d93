import Codecs
import NodeKit
import NodeTestSupport
import Settlement
import Synchronization
import Tender
import TenderTestSupport
import Testing

/// The sync engine's bookkeeping against a chain that does what the test says. (The real
/// chain, the real vault and the EVM client are exercised against the dev chain; here what
/// matters is that every failure between recording and settling is finished by the next pass
/// without a second redeem of any coin.)
@Suite struct SettlementEngineTests {
    let node = Node()
    var world: World { node.world }

    func engine(_ wallet: Wallet, _ chain: ScriptedChain) -> SettlementEngine {
        SettlementEngine(wallet: wallet, chain: chain, clock: node.clock, confirmations: 2)
    }

    @Test func coinsGoOutInOneBatchAndSettleAfterTheirConfirmations() async throws {
        let alice = try node.fundedAlice([10, 20, 30])
        let chain = ScriptedChain(vault: world.domain.vault)
        let sync = engine(alice, chain)
        #expect(try await sync.pass() == 1)
        let (sent, signed) = (await chain.sent, await chain.signed)
        #expect(sent.count == 1 && signed == 1)
        let tx = try #require(try alice.openRedeems().first)
        #expect(tx.coins.count == 3 && tx.nonce == 0)

        await chain.mine(tx.hash, fates: tx.coins.map { ($0, .redeemed(1)) })
        #expect(try await sync.pass() == 1)  // one confirmation of two
        await chain.advance()
        #expect(try await sync.pass() == 0)
        #expect(try alice.states(of: tx.coins) == [.redeemed, .redeemed, .redeemed])
        let signedOnce = await chain.signed
        #expect(signedOnce == 1)
    }

    /// Coins worth less than the gas of redeeming them wait, said with what they are worth
    /// and what they would cost; when gas is cheaper (or the policy says redeem) they go.
    @Test func coinsNotWorthTheirGasWaitUntilGasIsCheaper() async throws {
        let alice = try node.fundedAlice([10, 20])
        let chain = ScriptedChain(vault: world.domain.vault)
        await chain.setGasPrice(1_000_000_000)
        let events = Mutex<[SettlementEngine.Event]>([])
        #expect(
            try await engine(alice, chain).pass { event in events.withLock { $0.append(event) } }
                == 0)
        #expect(await chain.signed == 0)
        #expect(try alice.openRedeems().isEmpty)
        let said = events.withLock { $0 }
        guard case .dust(let coins, let value, let fee, let price) = try #require(said.last) else {
            Issue.record("no dust event in \(said)")
            return
        }
        #expect(coins == 2 && value == 30 && price == 1_000_000_000)
        #expect(fee >= 2 * Amount(RedeemGasModel().perCoin) * price)

        var redeeming = engine(alice, chain)
        redeeming.dust = .redeem
        #expect(try await redeeming.pass() == 1)
        #expect(await chain.signed == 1)
    }

    @Test func aTransactionRecordedButNeverSentIsSentAgainByteForByte() async throws {
        let alice = try node.fundedAlice([10, 20])
        let chain = ScriptedChain(vault: world.domain.vault)
        await chain.failSends(1)
        await #expect(throws: NodeError.self) { _ = try await engine(alice, chain).pass() }
        let recorded = try #require(try alice.openRedeems().first)
        #expect(await chain.sent.isEmpty)

        // The next run (as after a restart) sends the recorded bytes; nothing is signed anew.
        #expect(try await engine(alice, chain).pass() == 1)
        let (sent, signed) = (await chain.sent, await chain.signed)
        #expect(sent == [recorded.raw] && signed == 1)
        await chain.mine(recorded.hash, fates: recorded.coins.map { ($0, .redeemed(1)) })
        await chain.advance()
        #expect(try await engine(alice, chain).pass() == 0)
        #expect(try alice.states(of: recorded.coins) == [.redeemed, .redeemed])
    }

    @Test func aReorgedTransactionIsSentAgainAndSettledWhereItLands() async throws {
        let alice = try node.fundedAlice([10])
        let chain = ScriptedChain(vault: world.domain.vault)
        let sync = engine(alice, chain)
        _ = try await sync.pass()
        let tx = try #require(try alice.openRedeems().first)
        await chain.mine(tx.hash, fates: [(tx.coins[0], .redeemed(10))])
        _ = try await sync.pass()
        await chain.reorg(tx.hash)  // its block is gone; the transaction is back in no block
        #expect(try await sync.pass() == 1)
        #expect(try alice.openRedeems().first?.state == .signed)
        let sent = await chain.sent
        #expect(sent.count == 2 && Set(sent).count == 1)
        await chain.mine(tx.hash, fates: [(tx.coins[0], .redeemed(10))])
        await chain.advance()
        #expect(try await sync.pass() == 0)
        #expect(try alice.states(of: tx.coins) == [.redeemed])
    }

    @Test func aRevertedBatchGivesItsCoinsToTheNextWithTheNextNonce() async throws {
        let alice = try node.fundedAlice([10, 20])
        let chain = ScriptedChain(vault: world.domain.vault)
        let sync = engine(alice, chain)
        _ = try await sync.pass()
        let first = try #require(try alice.openRedeems().first)
        await chain.mine(first.hash, fates: [], succeeded: false)
        await chain.advance()
        // Reverted: the coins come back and go out again in a new batch, nonce 1.
        #expect(try await sync.pass() == 1)
        let second = try #require(try alice.openRedeems().first)
        #expect(second.hash != first.hash && second.nonce == 1)
        #expect(Set(second.coins) == Set(first.coins))
    }

    @Test func eachCoinTakesTheVaultsVerdict() async throws {
        let alice = try node.fundedAlice([10, 20, 30, 40])
        let chain = ScriptedChain(vault: world.domain.vault)
        let sync = engine(alice, chain)
        _ = try await sync.pass()
        let tx = try #require(try alice.openRedeems().first)
        await chain.mine(
            tx.hash,
            fates: [
                (tx.coins[0], .redeemed(10)), (tx.coins[1], .rejected(7)),
                (tx.coins[2], .rejected(11)), (tx.coins[3], .rejected(15)),
            ])
        await chain.advance()
        let log = EventLog()
        // The uncovered coin waits: its issuer's asset is held back, not sent at every pass.
        #expect(try await sync.pass { log.add($0) } == 0)
        #expect(try alice.states(of: tx.coins) == [.redeemed, .conflicted, .expired, .unspent])
        // Each refusal is reported with the vault's reason, and the hold with its end.
        #expect(
            log.all.contains(
                .refusedByVault(
                    tx: tx.hash,
                    reasons: [.doubleSpend: 1, .expired: 1, .insufficientCollateral: 1])))
        let now = node.clock.now()
        let hold = RedeemHold(
            issuer: world.issuer, asset: .zero, coins: 1, until: now + 600, reason: .uncovered)
        #expect(log.all.contains(.heldBack(hold)))
        #expect(try alice.redeemHolds(now: now) == [hold])
        #expect(try await sync.pass() == 0)
        #expect(await chain.signed == 1)
        // Once the hold ends it goes again; refused again, it is held twice as long.
        let later = SettlementEngine(
            wallet: alice, chain: chain, clock: FixedClock(now + 600), confirmations: 2)
        #expect(try await later.pass() == 1)
        let again = try #require(try alice.openRedeems().first)
        #expect(again.coins == [tx.coins[3]])
        await chain.mine(again.hash, fates: [(tx.coins[3], .rejected(15))])
        await chain.advance()
        let relog = EventLog()
        #expect(try await later.pass { relog.add($0) } == 0)
        #expect(
            relog.all.contains(
                .heldBack(
                    RedeemHold(
                        issuer: world.issuer, asset: .zero, coins: 1, until: now + 600 + 1_200,
                        reason: .uncovered))))
    }
}

extension Wallet {
    func states(of coins: [CoinID]) throws -> [CoinState] {
        let states = try coinStates()
        return coins.map { states[$0]! }
    }
}

/// Which coins a sync redeems, and what it does when the gas is not there
/// (Docs/PROTOCOL.md §11, "Who redeems").
@Suite struct RedeemPolicyTests {
    let node = Node()
    var world: World { node.world }

    /// Alice holds a coin for 30 days and one for 1 day.
    func alice() throws -> (Wallet, far: CoinID, near: CoinID) {
        let alice = try node.wallet(world.aliceKey)
        let now = node.clock.now()
        let far = world.note(30, serial: 1, expiry: now + 30 * 86_400)
        let near = world.note(20, serial: 2, expiry: now + 86_400)
        let payment = world.payment(
            ProofBundle(notes: [far, near]), to: world.alice, amount: 50,
            requestID: node.requestID(0xEE))
        _ = try alice.receive(
            Envelope(domain: world.domain, message: .payment(payment)).encoded(),
            key: world.aliceKey, now: now)
        return (alice, far.coinID(in: world.domain), near.coinID(in: world.domain))
    }

    func engine(
        _ wallet: Wallet, _ chain: ScriptedChain, _ policy: RedeemPolicy
    )
        -> SettlementEngine
    {
        var engine = SettlementEngine(
            wallet: wallet, chain: chain, clock: node.clock, confirmations: 1)
        engine.redeem = policy
        return engine
    }

    @Test func aPayerRedeemsOnlyTheCoinsItCanNoLongerPayWith() async throws {
        let (alice, far, near) = try alice()
        let chain = ScriptedChain(vault: world.domain.vault)
        #expect(try await engine(alice, chain, .unpayable).pass() == 1)
        let redeem = try #require(try alice.openRedeems().first)
        #expect(redeem.coins == [near])
        #expect(try alice.states(of: [far, near]) == [.unspent, .redeeming])
    }

    @Test func aPayeeRedeemsEveryCoinAndNoneOnlyReads() async throws {
        let (alice, far, near) = try alice()
        let chain = ScriptedChain(vault: world.domain.vault)
        #expect(try await engine(alice, chain, .none).pass() == 0)
        #expect(await chain.signed == 0)
        #expect(try await engine(alice, chain, .all).pass() == 1)
        let redeem = try #require(try alice.openRedeems().first)
        #expect(Set(redeem.coins) == [far, near])
    }

    /// Without the gas for a batch nothing is recorded or sent: the coins stay spendable and
    /// the refusal names the account, the chain and both amounts.
    @Test func withoutGasNothingIsRecordedAndTheCoinsStaySpendable() async throws {
        let (alice, far, near) = try alice()
        let chain = ScriptedChain(vault: world.domain.vault)
        await chain.setFunds(held: 999, cost: 1_000)
        do {
            _ = try await engine(alice, chain, .all).pass()
            Issue.record("a batch went out without its gas")
        } catch {
            guard case .noGas(let account, let chainID, let needed, let held) = error.kind else {
                Issue.record("not a no-gas refusal: \(error)")
                return
            }
            #expect(account == chain.sender && chainID == 31337)
            #expect(needed == 1_000 && held == 999)
            #expect(error.description.contains("no gas: \(chain.sender) holds 999"))
            #expect(error.description.contains("this batch was not sent"))
        }
        #expect(await chain.sent.isEmpty)
        #expect(try alice.openRedeems().isEmpty)
        #expect(try alice.states(of: [far, near]) == [.unspent, .unspent])
        #expect(try alice.balances(now: node.clock.now())[.zero]?.spendable == 50)

        await chain.setFunds(held: 1_000, cost: 1_000)
        #expect(try await engine(alice, chain, .all).pass() == 1)
        #expect(await chain.sent.count == 1)
    }
}

/// A chain that mines, reorgs and fails when the test says: the vault's verdicts are given per
/// coin, as the logs a real vault emits.
actor ScriptedChain: SettlementChain {
    enum Verdict: Sendable {
        case redeemed(Amount)
        case rejected(UInt8)
    }

    nonisolated let chainID: UInt64 = 31337
    nonisolated let sender = try! Address("0x000000000000000000000000000000000000bEEF")
    let vault: Address
    private(set) var sent: [[UInt8]] = []
    private(set) var signed = 0
    private var failing = 0
    private var receipts: [Bytes32: ChainReceipt] = [:]
    private var head: UInt64 = 1
    private var canonical: [UInt64: Bytes32] = [:]

    init(vault: Address) { self.vault = vault }

    func failSends(_ count: Int) { failing = count }

    /// What the sender holds, and what any transaction may cost (`funds(toSend:)`); set by a
    /// test (everything is paid for until then).
    private(set) var held: Amount = .max
    private(set) var cost: Amount = 0

    func setFunds(held: Amount, cost: Amount) { (self.held, self.cost) = (held, cost) }

    func funds(toSend raw: [UInt8]) async throws(NodeError) -> (needed: Amount, held: Amount) {
        (cost, held)
    }

    /// What `gasPrice()` answers; set by a test (free until then).
    private(set) var price: Amount = 0

    func setGasPrice(_ price: Amount) { self.price = price }

    func gasPrice() async throws(NodeError) -> Amount { price }

    func pendingNonce() async throws(NodeError) -> UInt64 { minedCount }

    func signRedeem(
        vault: Address, calldata: [UInt8], nonce: UInt64, estimatedGas: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        signed += 1
        let raw = [0x02] + withUnsafeBytes(of: nonce.bigEndian, Array.init) + calldata
        return (try! Bytes32(Keccak256.hash(raw)), raw)
    }

    /// What `minedNonce()` answers; set by a test (another transaction took a nonce).
    private(set) var minedCount: UInt64 = 0
    private(set) var replacements = 0

    func takeNonces(upTo next: UInt64) { minedCount = next }

    func minedNonce() async throws(NodeError) -> UInt64 { minedCount }

    /// The same bytes with a bump counter appended: a new hash, the nonce kept.
    func signReplacement(
        of raw: [UInt8]
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        replacements += 1
        let replacement = raw + [0xFE, UInt8(truncatingIfNeeded: replacements)]
        return (try! Bytes32(Keccak256.hash(replacement)), replacement)
    }

    func send(raw: [UInt8]) async throws(NodeError) {
        if failing > 0 {
            failing -= 1
            throw NodeError(.io("http://127.0.0.1:8545: connection refused"))
        }
        sent.append(raw)
    }

    func receipt(of hash: Bytes32) async throws(NodeError) -> ChainReceipt? { receipts[hash] }

    func blockHash(at number: UInt64) async throws(NodeError) -> Bytes32? { canonical[number] }

    func headBlock() async throws(NodeError) -> UInt64 { head }

    /// What `collateral(vault:now:)` answers; set by a test.
    private(set) var vaultCollateral: [IssuerAsset: Amount] = [:]
    private(set) var locks: [Address: UInt64] = [:]

    func deposit(_ amount: Amount, by issuer: Address, asset: Address, lockedUntil: UInt64) {
        vaultCollateral[IssuerAsset(issuer: issuer, asset: asset)] = amount
        locks[issuer] = lockedUntil
    }

    /// What `denomination(ofToken:)` answers, and how often it was asked; set by a test.
    private(set) var tokenUnits: [Address: Denomination] = [:]
    private(set) var unitReads: [Address] = []

    func name(_ token: Address, _ denomination: Denomination) { tokenUnits[token] = denomination }

    func denomination(ofToken asset: Address) async throws(NodeError) -> Denomination? {
        unitReads.append(asset)
        return tokenUnits[asset]
    }

    /// What `consumed(vault:coins:)` answers; set by a test.
    private(set) var consumedCoins: [CoinID: Bytes32] = [:]

    func consume(_ coin: CoinID, by transfer: Bytes32) { consumedCoins[coin] = transfer }

    /// Coins whose double spend the vault has on record; fraud proofs signed.
    private(set) var proven: Set<CoinID> = []
    private(set) var fraudProofsSigned: [CoinID] = []

    func prove(_ coin: CoinID) { proven.insert(coin) }

    func provenFrauds(
        vault: Address, of evidence: [DoubleSpendEvidence]
    ) async throws(NodeError) -> Set<CoinID> {
        proven.intersection(evidence.map(\.coin))
    }

    func signFraudProof(
        vault: Address, evidence: DoubleSpendEvidence, nonce: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        fraudProofsSigned.append(evidence.coin)
        let raw =
            [0x02, 0xF0] + withUnsafeBytes(of: nonce.bigEndian, Array.init) + evidence.coin.bytes
        return (try! Bytes32(Keccak256.hash(raw)), raw)
    }

    func consumed(vault: Address, coins: [CoinID]) async throws(NodeError) -> [CoinID: Bytes32] {
        Dictionary(uniqueKeysWithValues: coins.map { ($0, consumedCoins[$0] ?? .zero) })
    }

    func collateral(vault: Address, now: UInt64) async throws(NodeError) -> CollateralSnapshot {
        CollateralSnapshot(
            block: head, takenAt: now, collateral: vaultCollateral, lockedUntil: locks)
    }

    /// Mines `hash` in a new block with these verdicts.
    func mine(_ hash: Bytes32, fates: [(CoinID, Verdict)], succeeded: Bool = true) {
        head += 1
        let block = try! Bytes32(Keccak256.hash(Array("block \(head) \(hash.hex)".utf8)))
        canonical[head] = block
        let logs = fates.map { coin, verdict in
            switch verdict {
            case .redeemed(let amount):
                VaultLog(
                    address: vault, topics: [VaultEvents.coinRedeemed, coin],
                    data: word(UInt64(amount)))
            case .rejected(let code):
                VaultLog(
                    address: vault, topics: [VaultEvents.coinRejected, coin],
                    data: word(UInt64(code)))
            }
        }
        receipts[hash] = ChainReceipt(
            succeeded: succeeded, blockNumber: head, blockHash: block, logs: logs)
    }

    func advance() {
        head += 1
        canonical[head] = try! Bytes32(Keccak256.hash(Array("block \(head)".utf8)))
    }

    /// The block holding `hash` is replaced by one without it.
    func reorg(_ hash: Bytes32) {
        guard let receipt = receipts.removeValue(forKey: hash) else { return }
        canonical[receipt.blockNumber] = try! Bytes32(
            Keccak256.hash(Array("orphan \(receipt.blockNumber)".utf8)))
    }

    private func word(_ value: UInt64) -> [UInt8] {
        [UInt8](repeating: 0, count: 24) + withUnsafeBytes(of: value.bigEndian, Array.init)
    }
}

/// Passes that cannot reach the chain are tried again after a growing, jittered wait.
@Suite struct SyncRetryTests {
    let node = Node()

    @Test func aPassThatCannotReachTheChainIsTriedAgainAndTheRunGoesOn() async throws {
        let alice = try node.fundedAlice([10, 20])
        let chain = ScriptedChain(vault: node.world.domain.vault)
        await chain.failSends(2)
        var engine = SettlementEngine(
            wallet: alice, chain: chain, clock: node.clock, confirmations: 1)
        engine.backoff = Backoff(cap: .milliseconds(4))
        let events = EventLog()
        let open = try await engine.run(passes: 3, pause: .milliseconds(1)) { events.add($0) }
        #expect(open == 1)
        let retries = events.all.compactMap { event -> String? in
            if case .retrying(let reason, _) = event { return reason }
            return nil
        }
        #expect(retries.count == 2 && retries.allSatisfy { $0.contains("connection refused") })
        let recorded = try #require(try alice.openRedeems().first)
        let (sent, signed) = (await chain.sent, await chain.signed)
        #expect(sent == [recorded.raw] && signed == 1)  // sent again, never signed anew
    }

    @Test func theLastFailureIsThrownWhenThePassesRunOut() async throws {
        let alice = try node.fundedAlice([10])
        let chain = ScriptedChain(vault: node.world.domain.vault)
        await chain.failSends(5)
        var engine = SettlementEngine(wallet: alice, chain: chain, clock: node.clock)
        engine.backoff = Backoff(cap: .milliseconds(2))
        await #expect(throws: NodeError.self) {
            _ = try await engine.run(passes: 2, pause: .milliseconds(1))
        }
        #expect(await chain.signed == 1)
    }

    @Test func theWaitDoublesUpToTheCapAndJitterKeepsHalfToAllOfIt() {
        var random = SystemRandomNumberGenerator()
        let plain = Backoff(cap: .seconds(10), jitter: false)
        let waits = (1...6).map {
            plain.delay(afterFailures: $0, pause: .seconds(1), using: &random)
        }
        #expect(waits == [1, 2, 4, 8, 10, 10].map { Duration.seconds($0) })
        let jittered = Backoff(cap: .seconds(10))
        let samples = (0..<200).map { _ in
            jittered.delay(afterFailures: 3, pause: .seconds(1), using: &random)
        }
        #expect(samples.allSatisfy { $0 >= .seconds(2) && $0 <= .seconds(4) })
        #expect(Set(samples).count > 100)  // spread, not one value
    }
}

/// Engine events, collected across the closure's concurrency boundary.
final class EventLog: Sendable {
    private let events = Mutex<[SettlementEngine.Event]>([])
    func add(_ event: SettlementEngine.Event) { events.withLock { $0.append(event) } }
    var all: [SettlementEngine.Event] { events.withLock { $0 } }
}

/// What offline could not settle, settled by the chain: a payment without a receipt whose
/// transfer the vault shows is spent; one whose coins expired unredeemed gives its inputs back.
@Suite struct PaymentsSettledByTheChainTests {
    let node = Node()
    var world: World { node.world }

    /// Alice holds a note of 10 expiring in two hours and one of 20 in three days, and pays
    /// Bob 25 with both (handed over, no receipt): pending, window two hours.
    func pendingPayment() throws -> (Wallet, UnsettledPayment, [CoinID]) {
        let alice = try node.wallet(world.aliceKey)
        let notes = [
            world.note(10, serial: 1, expiry: world.now + 7_200),
            world.note(20, serial: 2, expiry: world.now + 3 * 86_400),
        ]
        let funding = world.payment(
            ProofBundle(notes: notes), to: world.alice, amount: 30,
            requestID: try Bytes32([UInt8](repeating: 0xEE, count: 32)))
        _ = try alice.receive(
            Envelope(domain: world.domain, message: .payment(funding)).encoded(),
            key: world.aliceKey, now: node.clock.now())
        let inputs = notes.map { $0.coinID(in: world.domain) }
        let prepared = try alice.preparePayment(
            to: world.bob, amount: 25, asset: .zero,
            requestID: try Bytes32([UInt8](repeating: 1, count: 32)), key: world.aliceKey,
            now: node.clock.now())
        try alice.handedOver(prepared.requestID, now: node.clock.now())
        let unsettled = try #require(try alice.unsettledPayments().first)
        #expect(Set(unsettled.inputs.keys) == Set(inputs) && unsettled.window == world.now + 7_200)
        return (alice, unsettled, inputs)
    }

    @Test func aPaymentWhoseTransferIsOnChainIsSpentWithoutAReceipt() async throws {
        let (alice, payment, inputs) = try pendingPayment()
        let chain = ScriptedChain(vault: world.domain.vault)
        await chain.consume(inputs[0], by: payment.inputs[inputs[0]]!)
        let events = EventLog()
        let engine = SettlementEngine(wallet: alice, chain: chain, clock: node.clock)
        try await engine.settleUnsettledPayments { events.add($0) }
        #expect(events.all == [.paymentOnChain(requestID: payment.requestID)])
        #expect(try alice.outgoingPayment(payment.requestID).state == .spent)
        #expect(try alice.unsettledPayments().isEmpty)
        #expect(try alice.balances(now: node.clock.now())[.zero]?.pending == 0)
    }

    @Test func aPaymentWhoseCoinsExpiredUnredeemedGivesItsInputsBack() async throws {
        let (alice, payment, inputs) = try pendingPayment()
        let chain = ScriptedChain(vault: world.domain.vault)
        // Inside the window, and in the margin after it: nothing moves.
        for now in [payment.window - 1, payment.window + SettlementEngine.lapseMargin - 1] {
            let engine = SettlementEngine(wallet: alice, chain: chain, clock: FixedClock(now))
            try await engine.settleUnsettledPayments()
            #expect(try alice.outgoingPayment(payment.requestID).state == .pending)
        }
        let later = FixedClock(payment.window + SettlementEngine.lapseMargin)
        let events = EventLog()
        _ = try await SettlementEngine(wallet: alice, chain: chain, clock: later).pass {
            events.add($0)
        }
        #expect(events.all.first == .paymentLapsed(requestID: payment.requestID, inputs: 2))
        #expect(try alice.outgoingPayment(payment.requestID).state == .cancelled)
        // The note of 10 is past its expiry; the note of 20 is Alice's again (the same pass
        // sends it to be redeemed), and the change of 5 the payment made is gone with it.
        #expect(try alice.states(of: inputs) == [.expired, .redeeming])
        let balance = try #require(try alice.balances(now: later.now())[.zero])
        #expect(balance.pending == 0 && balance.receivedUnsettled == 20)
    }

    @Test func aPaymentWhoseInputsAnotherTransferSpentStaysPending() async throws {
        let (alice, payment, inputs) = try pendingPayment()
        let chain = ScriptedChain(vault: world.domain.vault)
        await chain.consume(inputs[1], by: try Bytes32([UInt8](repeating: 9, count: 32)))
        let later = FixedClock(payment.window + SettlementEngine.lapseMargin + 1)
        try await SettlementEngine(wallet: alice, chain: chain, clock: later)
            .settleUnsettledPayments()
        #expect(try alice.outgoingPayment(payment.requestID).state == .pending)
    }
}

/// Evidence of a double spend that cost the wallet a coin goes to the vault once: recorded
/// before sent, sent again while unmined, settled when the vault has it on record; one the
/// chain refuses stops nothing. Evidence of one that cost it nothing is kept, never sent at
/// its expense.
@Suite struct FraudProofSubmissionTests {
    let node = Node()
    var world: World { node.world }

    /// Bob takes Alice's payment, then refuses her second spend of the same note: evidence.
    func bobWithEvidence(serial: UInt8 = 1, bob: Wallet? = nil) throws -> (Wallet, CoinID) {
        let bob = try bob ?? node.wallet(world.bobKey)
        let note = world.note(100, serial: serial)
        let coin = note.coinID(in: world.domain)
        for (index, amount) in [(1, 60), (2, 70)] {
            let spend = world.transfer(
                [coin], [(world.bob, Amount(amount)), (world.alice, Amount(100 - amount))],
                by: world.aliceKey)
            let payment = world.payment(
                ProofBundle(notes: [note], transfers: [spend]), to: world.bob,
                amount: Amount(amount),
                requestID: try Bytes32([UInt8](repeating: UInt8(index) &+ serial &* 16, count: 32)))
            _ = try? bob.receive(
                Envelope(domain: world.domain, message: .payment(payment)).encoded(),
                key: world.bobKey, now: node.clock.now())
        }
        #expect(try bob.evidence().map(\.evidence.coin).contains(coin))
        return (bob, coin)
    }

    /// Bob redeems the coins Alice paid him and the vault refuses them as spent already (she
    /// spent the note again, and that spend was redeemed first: unless `redeemedElsewhere` is
    /// false, the vault shows each note's coin consumed by her other spend): the pass that
    /// settles the refusal sends what it sends.
    func bobLoses(
        _ bob: Wallet, on chain: ScriptedChain, _ engine: SettlementEngine, _ events: EventLog,
        redeemedElsewhere: Bool = true
    ) async throws {
        if redeemedElsewhere {
            for evidence in try bob.evidence().map(\.evidence) {
                let ours = try bob.seenSpendDigests(of: [evidence.coin])[evidence.coin]
                let digests: [Bytes32] = [evidence.first, evidence.second].map {
                    $0.transfer.digest(in: world.domain)
                }
                let other: Bytes32 = try #require(digests.first { $0 != ours })
                await chain.consume(evidence.coin, by: other)
            }
        }
        _ = try await engine.pass()
        let redeem = try #require(try bob.openRedeems().first)
        await chain.mine(redeem.hash, fates: redeem.coins.map { ($0, .rejected(7)) })
        await chain.advance()
        _ = try await engine.pass { events.add($0) }
        #expect(try bob.states(of: redeem.coins).allSatisfy { $0 == .conflicted })
    }

    @Test func evidenceIsSentOnceItCostACoinAndSettledWhenTheVaultHasItOnRecord() async throws {
        let (bob, coin) = try bobWithEvidence()
        let chain = ScriptedChain(vault: world.domain.vault)
        let engine = SettlementEngine(wallet: bob, chain: chain, clock: node.clock)
        let events = EventLog()
        // Bob refused the second spend and lost nothing: no proof at his expense.
        try await engine.submitFraudProofs { events.add($0) }
        #expect(events.all.isEmpty)
        #expect(try bob.fraudProofs().isEmpty)
        #expect(await chain.fraudProofsSigned.isEmpty)
        // His coin refused by the vault: the double spend cost him, and the proof goes.
        try await bobLoses(bob, on: chain, engine, events)
        let record = try #require(try bob.fraudProofs()[coin])
        #expect(record.state == .sent)
        #expect(events.all.contains(.fraudProofSent(coin: coin, tx: record.hash)))
        #expect(await chain.sent.last == record.raw)
        let sent = await chain.sent.count
        // Not mined yet: the same bytes again, nothing signed anew; the nonce (after the
        // redeem's) is used up.
        try await engine.submitFraudProofs()
        let resent = await chain.sent
        #expect(resent.count == sent + 1 && resent.last == record.raw)
        #expect(await chain.fraudProofsSigned == [coin])
        #expect(try bob.nextNonce(chainID: chain.chainID, sender: chain.sender) == 2)
        // On record: proven, and never sent again.
        await chain.prove(coin)
        try await engine.submitFraudProofs { events.add($0) }
        #expect(
            events.all.last == .fraudProven(coin: coin, owner: world.alice, byThisNode: true))
        #expect(try bob.fraudProofs()[coin]?.state == .proven)
        try await engine.submitFraudProofs()
        #expect(await chain.sent.count == sent + 1)
    }

    /// A coin refused, and evidence of double spends in its proof that the vault does not show
    /// (a payer's keys each signing a second spend of their coin, none redeemed): nothing sent.
    @Test func evidenceTheVaultDoesNotShowIsNotSent() async throws {
        let (bob, coin) = try bobWithEvidence()
        let chain = ScriptedChain(vault: world.domain.vault)
        let engine = SettlementEngine(wallet: bob, chain: chain, clock: node.clock)
        try await bobLoses(bob, on: chain, engine, EventLog(), redeemedElsewhere: false)
        #expect(try bob.fraudProofs().isEmpty)
        #expect(await chain.fraudProofsSigned.isEmpty)
        // Consumed on chain by the very transfer Bob's proof holds: no double spend, nothing.
        let ours = try #require(try bob.seenSpendDigests(of: [coin])[coin])
        await chain.consume(coin, by: ours)
        try await engine.submitFraudProofs()
        #expect(await chain.fraudProofsSigned.isEmpty)
    }

    /// Two notes Alice spent twice each, both costing Bob: her address goes on record once.
    @Test func oneProofPerDoubleSpender() async throws {
        let (bob, first) = try bobWithEvidence(serial: 1)
        let (_, second) = try bobWithEvidence(serial: 2, bob: bob)
        let chain = ScriptedChain(vault: world.domain.vault)
        let engine = SettlementEngine(wallet: bob, chain: chain, clock: node.clock)
        try await bobLoses(bob, on: chain, engine, EventLog())
        #expect(try bob.coinStates().values.filter { $0 == .conflicted }.count == 2)
        let signed = await chain.fraudProofsSigned
        #expect(signed.count == 1 && [first, second].contains(signed[0]))
        try await engine.submitFraudProofs()
        #expect(await chain.fraudProofsSigned == signed)
    }

    @Test func evidenceAnotherNodeProvedFirstIsNotSent() async throws {
        let (bob, coin) = try bobWithEvidence()
        let chain = ScriptedChain(vault: world.domain.vault)
        await chain.prove(coin)
        let events = EventLog()
        try await bobLoses(
            bob, on: chain, SettlementEngine(wallet: bob, chain: chain, clock: node.clock), events)
        #expect(
            events.all.contains(.fraudProven(coin: coin, owner: world.alice, byThisNode: false)))
        #expect(await chain.fraudProofsSigned.isEmpty)
    }
}
