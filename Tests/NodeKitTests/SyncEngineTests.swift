import Codecs
import NodeKit
import Settlement
import Tender
import TenderTestSupport
import Testing
import WalletStore

/// The sync engine's bookkeeping against a chain that does what the test says. (The real
/// chain, the real vault and the EVM client are exercised against the dev chain; here what
/// matters is that every failure between recording and settling is finished by the next pass
/// without a second redeem of any coin.)
@Suite struct SyncEngineTests {
    let node = Node()
    var world: World { node.world }

    func engine(_ wallet: Wallet, _ chain: ScriptedChain) -> SyncEngine {
        SyncEngine(wallet: wallet, chain: chain, clock: node.clock, confirmations: 2)
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
        #expect(try await sync.pass() == 1)  // the coin the collateral did not cover goes again
        #expect(try alice.states(of: tx.coins) == [.redeemed, .conflicted, .expired, .redeeming])
    }
}

extension Wallet {
    func states(of coins: [CoinID]) throws -> [CoinState] {
        let states = try coinStates()
        return coins.map { states[$0]! }
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

    func pendingNonce() async throws(NodeError) -> UInt64 { 0 }

    func signRedeem(
        vault: Address, calldata: [UInt8], nonce: UInt64, estimatedGas: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        signed += 1
        let raw = [0x02] + withUnsafeBytes(of: nonce.bigEndian, Array.init) + calldata
        return (try! Bytes32(Keccak256.hash(raw)), raw)
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
