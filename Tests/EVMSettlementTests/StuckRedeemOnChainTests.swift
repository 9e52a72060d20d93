import BigInt
import ChainTestSupport
import EVM
import EVMSettlement
import NodeKit
import Secp256k1
import Settlement
import Tender
import TenderTestSupport
import Testing

extension SettlementOnChainTests {
    /// With automine off, a redeem whose fee cap is below the base fee waits in the pool:
    /// the engine replaces it (same nonce, fees bumped) and the replacement is mined; the
    /// stuck one never is, and every coin is redeemed once.
    @Test func aStuckRedeemIsReplacedAndTheReplacementMined() async throws {
        let (vault, wallet, coins, _, stingy) = try await bobHoldingTwoCoins()
        let clock = SystemClock()
        var engine = SettlementEngine(wallet: wallet, chain: stingy, clock: clock, confirmations: 1)
            .redeemingDust()
        engine.replaceAfter = 0
        let dev = try #require(DevChain.current)

        try await dev.withAutomineOff {
            #expect(try await engine.pass() == 1)
            let stuck = try #require(try wallet.openRedeems().first)
            try await dev.control("evm_mine")
            #expect(try await rpc.transactionReceipt(stuck.hash) == nil)

            let seen = Seen()
            #expect(try await engine.pass { seen.add($0) } == 1)
            let replacement = try #require(try wallet.openRedeems().first)
            #expect(seen.events.contains(.replaced(tx: stuck.hash, by: replacement.hash)))
            let (old, new) = (
                try SignedTransaction(raw: stuck.raw), try SignedTransaction(raw: replacement.raw)
            )
            #expect(new.transaction.nonce == old.transaction.nonce)
            #expect(new.transaction.maxFeePerGas * 100 >= old.transaction.maxFeePerGas * 110)
            try await dev.control("evm_mine")
            #expect(try await engine.pass() == 0)
            #expect(try await rpc.transactionReceipt(stuck.hash) == nil)
        }
        #expect(try await redeemedOnce(coins, in: wallet, vault: vault))
    }

    /// A redeem pushed out of the pool by another transaction of the key with its nonce (a
    /// nonce gap after the redeem was signed): dropped, its coins out again with the next.
    @Test func aRedeemWhoseNonceAnotherTransactionTookGoesOutAgain() async throws {
        let (vault, wallet, coins, real, stingy) = try await bobHoldingTwoCoins()
        let clock = SystemClock()
        let dev = try #require(DevChain.current)

        try await dev.withAutomineOff {
            let first = SettlementEngine(
                wallet: wallet, chain: stingy, clock: clock, confirmations: 1
            ).redeemingDust()
            #expect(try await first.pass() == 1)
            let dropped = try #require(try wallet.openRedeems().first)
            // Bob's key, outside the wallet, signs another transaction with that nonce and
            // higher fees: the pool takes it in the redeem's place, and it is mined.
            let other = try Transaction(
                chainID: DevChain.chainID, nonce: dropped.nonce,
                fees: Fees(maxPriorityFeePerGas: .gwei, maxFeePerGas: 100 * .gwei), gas: 21_000,
                to: devAccount, value: 1
            ).signed(with: stingy.key)
            try await rpc.sendRawTransaction(other)
            try await dev.control("evm_mine")
            #expect(try await rpc.transactionReceipt(other.hash)?.succeeded == true)

            let engine = SettlementEngine(
                wallet: wallet, chain: real, clock: clock, confirmations: 1
            ).redeemingDust()
            let seen = Seen()
            #expect(try await engine.pass { seen.add($0) } == 1)
            #expect(seen.events.contains(.dropped(tx: dropped.hash, coins: 2)))
            let again = try #require(try wallet.openRedeems().first)
            #expect(again.nonce == dropped.nonce + 1 && Set(again.coins) == Set(coins))
            try await dev.control("evm_mine")
            #expect(try await engine.pass() == 0)
        }
        #expect(try await redeemedOnce(coins, in: wallet, vault: vault))
    }

    /// A funded vault; Bob, with gas money, holding two notes of it in a wallet; his chain as
    /// it is and as it underprices redeems.
    func bobHoldingTwoCoins() async throws -> (
        vault: Address, wallet: Wallet, coins: [CoinID], real: EVMSettlementChain,
        faulty: FaultyRedeems
    ) {
        let (vault, issuerSender) = try await fundedVault(collateral: 1_000_000 * .gwei)
        let bobKey = PrivateKey.generate()
        _ = try await confirmed(
            try await issuerSender.send(
                to: Address(publicKey: bobKey.publicKey), value: 1_000_000_000 * .gwei
            ).hash)
        let (wallet, coins) = try holding(
            count: 2, of: 2_000_000_000, by: bobKey,
            in: Domain(chainID: DevChain.chainID, vault: vault), clock: SystemClock())
        let real = EVMSettlementChain(rpc: rpc, chainID: DevChain.chainID, key: bobKey)
        return (vault, wallet, coins, real, FaultyRedeems(real: real, rpc: rpc, key: bobKey))
    }

    /// A batch that runs out of gas is mined and reverted: its coins come back and go out in
    /// the next batch, with the next nonce, and are redeemed once.
    @Test func aRevertedBatchGivesItsCoinsToTheNext() async throws {
        var (vault, wallet, coins, real, starved) = try await bobHoldingTwoCoins()
        starved.fault = .outOfGas
        let clock = SystemClock()
        let first = SettlementEngine(wallet: wallet, chain: starved, clock: clock, confirmations: 1)
            .redeemingDust()
        #expect(try await first.pass() == 1)
        let reverted = try #require(try wallet.openRedeems().first)
        #expect(try await rpc.transactionReceipt(reverted.hash)?.succeeded == false)

        let engine = SettlementEngine(wallet: wallet, chain: real, clock: clock, confirmations: 1)
            .redeemingDust()
        let seen = Seen()
        #expect(try await engine.pass { seen.add($0) } == 1)
        #expect(seen.events.contains(.reverted(tx: reverted.hash, coins: 2)))
        let next = try #require(try wallet.openRedeems().first)
        #expect(next.nonce == reverted.nonce + 1 && Set(next.coins) == Set(coins))
        #expect(try await engine.run(passes: 20, pause: .milliseconds(100)) == 0)
        #expect(try await redeemedOnce(coins, in: wallet, vault: vault))
    }

    /// Every coin of `coins` redeemed in the wallet, and named by exactly one of the vault's
    /// CoinRedeemed events.
    func redeemedOnce(_ coins: [CoinID], in wallet: Wallet, vault: Address) async throws -> Bool {
        let states = try wallet.coinStates()
        let redeemed = try await rpc.logs(
            LogFilter(
                fromBlock: .earliest, toBlock: .latest, addresses: [vault],
                topics: [[VaultCalls.Event.coinRedeemed]]))
        return coins.allSatisfy { states[$0] == .redeemed }
            && redeemed.map { $0.topics[1] }.sorted() == coins.sorted()
    }
}

/// The real chain, except that redeems are signed wrong in one way: with a fee cap one wei
/// below the next block's base fee (as if the base fee rose right after they were signed:
/// they wait in the pool until replaced), or with too little gas (mined, and reverted).
struct FaultyRedeems: SettlementChain {
    enum Fault { case underpriced, outOfGas }
    let real: EVMSettlementChain
    let rpc: EthereumRPC
    let key: PrivateKey
    var fault = Fault.underpriced

    var chainID: UInt64 { real.chainID }
    var sender: Address { real.sender }

    func signRedeem(
        vault: Address, calldata: [UInt8], nonce: UInt64, estimatedGas: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        do {
            let baseFee = try await rpc.feeHistory(blocks: 1).baseFeePerGas.last ?? 1
            let signed = try Transaction(
                chainID: chainID, nonce: nonce,
                fees: fault == .underpriced
                    ? Fees(maxPriorityFeePerGas: 0, maxFeePerGas: baseFee - 1)
                    : Fees(maxPriorityFeePerGas: .gwei, maxFeePerGas: 2 * baseFee + .gwei),
                gas: fault == .underpriced ? estimatedGas * 2 : estimatedGas / 3, to: vault,
                data: calldata
            ).signed(with: key)
            return (signed.hash, signed.raw)
        } catch { throw NodeError(.io("\(error)")) }
    }

    func signReplacement(
        of raw: [UInt8]
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        try await real.signReplacement(of: raw)
    }
    func minedNonce() async throws(NodeError) -> UInt64 { try await real.minedNonce() }
    func pendingNonce() async throws(NodeError) -> UInt64 { try await real.pendingNonce() }
    func send(raw: [UInt8]) async throws(NodeError) { try await real.send(raw: raw) }
    func receipt(of hash: Bytes32) async throws(NodeError) -> ChainReceipt? {
        try await real.receipt(of: hash)
    }
    func blockHash(at number: UInt64) async throws(NodeError) -> Bytes32? {
        try await real.blockHash(at: number)
    }
    func headBlock() async throws(NodeError) -> UInt64 { try await real.headBlock() }
    func collateral(vault: Address, now: UInt64) async throws(NodeError) -> CollateralSnapshot {
        try await real.collateral(vault: vault, now: now)
    }
    func consumed(vault: Address, coins: [CoinID]) async throws(NodeError) -> [CoinID: Bytes32] {
        try await real.consumed(vault: vault, coins: coins)
    }
    func provenFrauds(
        vault: Address, of evidence: [DoubleSpendEvidence]
    ) async throws(NodeError) -> Set<CoinID> {
        try await real.provenFrauds(vault: vault, of: evidence)
    }
    func signFraudProof(
        vault: Address, evidence: DoubleSpendEvidence, nonce: UInt64
    ) async throws(NodeError) -> (hash: Bytes32, raw: [UInt8]) {
        try await real.signFraudProof(vault: vault, evidence: evidence, nonce: nonce)
    }
}
