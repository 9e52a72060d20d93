import BigInt
import ChainTestSupport
import DevTools
import EVM
import EVMSettlement
import Foundation
import NodeKit
import Secp256k1
import Settlement
import Synchronization
import Tender
import TenderTestSupport
import Testing

/// Settlement end to end on the dev chain: the real vault deployed and funded, notes issued
/// against it, a wallet holding them, and the sync engine redeeming them through the EVM
/// client; the chain's own records (balances, collateral, events) confirm it.
@Suite(.serialized, .devChain) struct SettlementOnChainTests {
    var rpc: EthereumRPC { DevChain.current!.rpc }

    func confirmed(_ hash: Bytes32) async throws -> TransactionReceipt {
        let outcome = try await rpc.waitForReceipt(
            hash, confirmations: 1, timeout: .generousWait, pollInterval: .milliseconds(50))
        guard case .confirmed(let receipt, _) = outcome, receipt.succeeded else {
            throw EVMError.malformedResponse("\(hash) not confirmed: \(outcome)")
        }
        return receipt
    }

    /// A vault deployed by the dev account, which deposits `collateral` wei as an issuer.
    func fundedVault(collateral: BigUInt) async throws -> (Address, TransactionSender) {
        let issuer = TransactionSender(
            key: devKey, chainID: DevChain.chainID, rpc: rpc, nonces: MemoryNonceStore())
        let initCode = try DevChain.compile(
            DevChain.root.appendingPathComponent("Contracts/Vault.vy"))
        let vault = try #require(
            try await confirmed(try await issuer.send(to: nil, data: initCode).hash)
                .contractAddress)
        _ = try await confirmed(
            try await issuer.send(
                to: vault, value: collateral,
                data: VaultCalls.deposit(asset: .zero, amount: collateral)
            ).hash)
        return (vault, issuer)
    }

    /// A vault with the dev account's collateral, and Bob, a payee with gas of his own.
    func vaultAndFundedPayee() async throws -> (
        vault: Address, domain: Domain, bobKey: PrivateKey, bob: Address
    ) {
        let (vault, issuerSender) = try await fundedVault(collateral: 1_000_000_000 * .gwei)
        let bobKey = PrivateKey.generate()
        let bob = Address(publicKey: bobKey.publicKey)
        _ = try await confirmed(
            try await issuerSender.send(to: bob, value: 1_000_000_000 * .gwei).hash)
        return (vault, Domain(chainID: DevChain.chainID, vault: vault), bobKey, bob)
    }

    @Test func heldCoinsAreRedeemedOnChainAndSettledInTheWallet() async throws {
        let (vault, domain, bobKey, bob) = try await vaultAndFundedPayee()

        // Five notes of 0.001 ETH from the dev account as issuer, taken by Bob's wallet, and
        // two of 3 gwei: worth far less than the gas of redeeming them (1 gwei a unit at least).
        let clock = SystemClock()
        let (wallet, coins) = try holding(
            count: 5, of: 1_000_000 * 1_000_000_000, by: bobKey, in: domain, clock: clock)
        let dust = try receiveNotes(
            count: 2, of: 3_000_000_000, into: wallet, key: bobKey, clock: clock)

        let collateralBefore = try await collateral(vault)
        let chain = EVMSettlementChain(rpc: rpc, chainID: DevChain.chainID, key: bobKey)
        var engine = SettlementEngine(wallet: wallet, chain: chain, clock: clock, confirmations: 1)
        let seen = Seen()
        let open = try await engine.run(passes: 10, pause: .milliseconds(200)) { seen.add($0) }
        #expect(open == 0)
        var states = try wallet.coinStates()
        #expect(coins.map { states[$0] } == Array(repeating: .redeemed, count: 5))
        #expect(dust.map { states[$0] } == [.unspent, .unspent])
        let waited = seen.events.compactMap { event -> (Int, Amount, Amount)? in
            guard case .dust(let count, let value, _, let price) = event else { return nil }
            return (count, value, price)
        }
        #expect(waited.first.map { $0.0 == 2 && $0.1 == 6_000_000_000 } == true)
        #expect(waited.allSatisfy { $0.2 >= 1_000_000_000 })

        // The chain's word: one CoinRedeemed per coin from this vault, and the issuer's
        // collateral down by exactly what was paid.
        let redeemed = try await redeemedCoins(vault)
        #expect(Set(redeemed) == Set(coins))
        #expect(try await collateral(vault) == collateralBefore - 5_000_000 * .gwei)

        // A second run sends nothing: the dust still waits.
        let nonce = try await rpc.transactionCount(of: bob, at: .pending)
        #expect(try await engine.run(passes: 1, pause: .zero) == 0)
        #expect(try await rpc.transactionCount(of: bob, at: .pending) == nonce)

        // Told to redeem dust anyway, it goes.
        engine.dust = .redeem
        #expect(try await engine.run(passes: 10, pause: .milliseconds(200)) == 0)
        states = try wallet.coinStates()
        #expect(dust.map { states[$0] } == [.redeemed, .redeemed])
    }

    /// Alice spends one note twice offline, to Bob and to Carol; each takes his payment (each
    /// sees only his own). Both sync: exactly one is paid, the other's coin is conflicted and
    /// the vault records the double spend with Alice as its owner.
    @Test func aCoinSpentTwiceOfflineIsPaidOnceAndTheOtherHoldsTheEvidence() async throws {
        let (vault, issuerSender) = try await fundedVault(collateral: 1_000_000 * .gwei)
        let domain = Domain(chainID: DevChain.chainID, vault: vault)
        let clock = SystemClock()
        var random = SystemRandomNumberGenerator()
        let (aliceKey, bobKey, carolKey) = (
            PrivateKey.generate(), PrivateKey.generate(), PrivateKey.generate()
        )
        let (alice, bob, carol) = (
            Address(publicKey: aliceKey.publicKey), Address(publicKey: bobKey.publicKey),
            Address(publicKey: carolKey.publicKey)
        )
        for payee in [bob, carol] {
            _ = try await confirmed(
                try await issuerSender.send(to: payee, value: 1_000_000_000 * .gwei).hash)
        }
        let note = try SignedNote(
            signing: Note(
                serial: .random(using: &random), issuer: devAccount, asset: .zero,
                amount: 7_000_000_000, owner: alice, expiry: clock.now() + 86_400),
            with: devKey, in: domain)
        /// Alice's spend of her note to `payee` (or one signed by another key: a decoy).
        func spend(to payee: Address, signedBy key: PrivateKey? = nil) throws -> SignedTransfer {
            try SignedTransfer(
                signing: Transfer(
                    inputs: [note.coinID(in: domain)],
                    outputs: [Output(owner: payee, amount: 7_000_000_000)]),
                with: key ?? aliceKey, in: domain)
        }
        func payment(to payee: Address) throws -> [UInt8] {
            let spend = try spend(to: payee)
            let coin = spend.outputCoins(digest: spend.transfer.digest(in: domain))[0]
            let terms = PaymentTerms(
                requestID: .random(using: &random), payee: payee, amount: 7_000_000_000,
                asset: .zero, coins: [coin])
            let signed = try Payment(
                signing: terms, bundle: ProofBundle(notes: [note], transfers: [spend]),
                with: aliceKey, in: domain)
            return Envelope(domain: domain, message: .payment(signed)).encoded()
        }
        var outcomes: [CoinState] = []
        for (key, payee) in [(bobKey, bob), (carolKey, carol)] {
            let folder = try TemporaryDirectory("tender-double")
            let wallet = try Wallet.create(
                at: folder.file("wallet.sqlite"), address: payee, domain: domain)
            try wallet.trust(devAccount, now: clock.now())
            let coin = try wallet.receive(try payment(to: payee), key: key, now: clock.now())
                .credited[0].id
            let chain = EVMSettlementChain(rpc: rpc, chainID: DevChain.chainID, key: key)
            let engine = SettlementEngine(
                wallet: wallet, chain: chain, clock: clock, confirmations: 1
            ).redeemingDust()
            #expect(try await engine.run(passes: 10, pause: .milliseconds(200)) == 0)
            outcomes.append(try #require(try wallet.coinStates()[coin]))
        }
        #expect(outcomes == [.redeemed, .conflicted])
        let doubleSpends = try await rpc.logs(
            LogFilter(
                fromBlock: .earliest, toBlock: .latest, addresses: [vault],
                topics: [[VaultEvents.doubleSpend]]))
        #expect(doubleSpends.count == 1)
        #expect(doubleSpends.first?.topics[1] == note.coinID(in: domain))
        #expect(doubleSpends.first.map { Array($0.topics[2].bytes.suffix(20)) } == alice.bytes)
        // `consumed(coin)` names the transfer that won (Bob's, the first to sync): what a
        // payer without a receipt settles its payment by. A coin never spent reads zero.
        let bobsTransfer = Transfer(
            inputs: [note.coinID(in: domain)], outputs: [Output(owner: bob, amount: 7_000_000_000)]
        ).digest(in: domain)
        let unknown = Bytes32.random(using: &random)
        let consumed = try await rpc.vaultConsumed(
            vault, coins: [note.coinID(in: domain), unknown])
        #expect(consumed == [note.coinID(in: domain): bobsTransfer, unknown: .zero])

        // First a stranger (Bob's key, which never owned the coin) signs two "spends" of it
        // and proves that: a decoy meant to take the coin's record before the owner's.
        let chain = EVMSettlementChain(rpc: rpc, chainID: DevChain.chainID, key: carolKey)
        let decoyEvidence = try DoubleSpendEvidence(
            coin: note.coinID(in: domain), try spend(to: bob, signedBy: bobKey),
            try spend(to: carol, signedBy: bobKey), in: domain)
        let stranger = EVMSettlementChain(rpc: rpc, chainID: DevChain.chainID, key: bobKey)
        let decoyProof = try await stranger.signFraudProof(
            vault: vault, evidence: decoyEvidence, nonce: try await stranger.pendingNonce())
        try await stranger.send(raw: decoyProof.raw)
        #expect(try await confirmed(decoyProof.hash).succeeded)

        // Carol holds both of Alice's transfers (say, shown her later): the decoy does not
        // stand for Alice's record, her node's fraud proof puts Alice on record, and the same
        // proof again is refused before it is signed.
        let evidence = try DoubleSpendEvidence(
            coin: note.coinID(in: domain), try spend(to: bob), try spend(to: carol), in: domain)
        #expect(try await chain.provenFrauds(vault: vault, of: [evidence]).isEmpty)
        let proof = try await chain.signFraudProof(
            vault: vault, evidence: evidence, nonce: try await chain.pendingNonce())
        try await chain.send(raw: proof.raw)
        #expect(try await confirmed(proof.hash).succeeded)
        #expect(try await chain.provenFrauds(vault: vault, of: [evidence]) == [evidence.coin])
        #expect(
            try await rpc.vaultDoubleSpends(
                vault, [(evidence.coin, alice), (evidence.coin, bob), (evidence.coin, carol)])
                == [true, true, false])
        await #expect(throws: NodeError.self) {
            _ = try await chain.signFraudProof(
                vault: vault, evidence: evidence, nonce: try await chain.pendingNonce())
        }
    }

    /// Faults of the real chain: Bob's key used outside the wallet first (the chain's nonce
    /// ahead of the wallet's), then the block holding his redeem reverted away
    /// (`evm_snapshot`/`evm_revert`) before its confirmations: the engine sees the reorg,
    /// sends the same bytes again, and every coin is redeemed exactly once.
    @Test func aNonceGapAndAReorgEndInOneRedeemPerCoin() async throws {
        let (vault, domain, bobKey, _) = try await vaultAndFundedPayee()
        let bobOutside = TransactionSender(
            key: bobKey, chainID: DevChain.chainID, rpc: rpc, nonces: MemoryNonceStore())
        _ = try await confirmed(try await bobOutside.send(to: devAccount, value: 1).hash)

        let clock = SystemClock()
        let (wallet, coins) = try holding(
            count: 3, of: 2_000_000_000, by: bobKey, in: domain, clock: clock)
        let chain = EVMSettlementChain(rpc: rpc, chainID: DevChain.chainID, key: bobKey)
        let engine = SettlementEngine(wallet: wallet, chain: chain, clock: clock, confirmations: 3)
            .redeemingDust()
        let dev = try #require(DevChain.current)

        let snapshot = try await dev.control("evm_snapshot")
        #expect(try await engine.pass() == 1)  // recorded and sent; mined on arrival
        #expect(try await engine.pass() == 1)  // mined, short of its confirmations
        let record = try #require(try wallet.openRedeems().first)
        #expect(record.state == .mined && record.nonce == 1)
        try await dev.control("evm_revert", [snapshot])
        #expect(try await rpc.transactionReceipt(record.hash) == nil)

        let seen = Seen()
        #expect(try await engine.pass { seen.add($0) } == 1)
        #expect(seen.events.contains(.reorged(tx: record.hash)))
        #expect(seen.events.contains(.sent(tx: record.hash, coins: 3, resent: true)))
        for _ in 0..<3 { try await dev.control("evm_mine") }
        #expect(try await engine.run(passes: 20, pause: .milliseconds(100)) == 0)
        let states = try wallet.coinStates()
        #expect(coins.map { states[$0] } == Array(repeating: .redeemed, count: 3))
        #expect(try await redeemedCoins(vault).sorted() == coins.sorted())
    }

    /// A fresh wallet of `key` that took `count` notes of `amount` from the dev account.
    func holding(
        count: Int, of amount: Amount, by key: PrivateKey, in domain: Domain, clock: SystemClock
    ) throws -> (Wallet, [CoinID]) {
        var random = SystemRandomNumberGenerator()
        let owner = Address(publicKey: key.publicKey)
        let issuer = Issuer(key: devKey, domain: domain)
        let (_, envelope) = try issuer.issue(
            to: owner, amount: amount, count: count, asset: .zero,
            expiry: clock.now() + 86_400, using: &random)
        let folder = try TemporaryDirectory("tender-settle")
        let wallet = try Wallet.create(
            at: folder.file("wallet.sqlite"), address: owner, domain: domain)
        try wallet.trust(issuer.address, now: clock.now())
        let coins = try wallet.receive(envelope, key: key, now: clock.now()).credited.map(\.id)
        return (wallet, coins)
    }

    /// `count` more notes of `amount` from the dev account as issuer, taken by `wallet`.
    func receiveNotes(
        count: Int, of amount: Amount, into wallet: Wallet, key: PrivateKey, clock: SystemClock
    ) throws -> [CoinID] {
        var random = SystemRandomNumberGenerator()
        let (_, envelope) = try Issuer(key: devKey, domain: wallet.domain).issue(
            to: wallet.address, amount: amount, count: count, asset: .zero,
            expiry: clock.now() + 86_400, using: &random)
        return try wallet.receive(envelope, key: key, now: clock.now()).credited.map(\.id)
    }

    /// The coins the vault's CoinRedeemed events name, in order.
    func redeemedCoins(_ vault: Address) async throws -> [Bytes32] {
        try await rpc.logs(
            LogFilter(
                fromBlock: .earliest, toBlock: .latest, addresses: [vault],
                topics: [[VaultCalls.Event.coinRedeemed]])
        ).map { $0.topics[1] }
    }

    func collateral(_ vault: Address) async throws -> BigUInt {
        let answer = try await rpc.call(
            CallRequest(to: vault, data: VaultCalls.collateral(issuer: devAccount, asset: .zero)))
        return try #require(try ABI.decode([.uint256], from: answer).first?.uint)
    }
}

/// Engine events, kept across the closure's concurrency boundary.
final class Seen: Sendable {
    private let kept = Mutex<[SettlementEngine.Event]>([])
    func add(_ event: SettlementEngine.Event) { kept.withLock { $0.append(event) } }
    var events: [SettlementEngine.Event] { kept.withLock { $0 } }
}

extension SettlementEngine {
    /// Test amounts (a few gwei) are worth less than their gas: tests of other things redeem
    /// them anyway.
    func redeemingDust() -> SettlementEngine {
        var engine = self
        engine.dust = .redeem
        return engine
    }
}
