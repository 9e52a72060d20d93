import Foundation
import GRDB
import Tender
import TenderTestSupport
import Testing

@testable import WalletStore

/// The store's side of settlement: a redeem is recorded (coins moved, nonce kept) before it is
/// sent, so a crash anywhere leaves either nothing or a transaction to send again; each coin
/// then ends in exactly one final state.
@Suite struct SettlementStoreTests {
    let world = World()
    let sender = try! Address("0x000000000000000000000000000000000000bEEF")

    /// Bob's store holding coins of `amounts`, issued to him directly; and its path.
    func bob(_ amounts: [Amount]) throws -> (WalletDatabase, String, [CoinID]) {
        let path = try TemporaryDirectory("tender-settle").file("wallet.sqlite")
        let store = try WalletDatabase(path: path)
        try store.bind(address: world.bob, domain: world.domain)
        try store.trust(world.issuer, now: world.now)
        let notes = amounts.enumerated().map {
            world.note($1, to: world.bob, serial: UInt8($0 + 1))
        }
        let payment = world.payment(
            ProofBundle(notes: notes), to: world.bob, amount: amounts.reduce(0, +),
            requestID: try Bytes32([UInt8](repeating: 0xEE, count: 32)))
        let checked = try world.verifier.check(
            payment, payee: world.bob, policy: world.policy, now: world.now)
        try store.acceptPayment(checked, receipt: [1], now: world.now)
        return (store, path, notes.map { $0.coinID(in: world.domain) })
    }

    func redeem(_ coins: [CoinID], nonce: UInt64, tag: UInt8 = 1) throws -> SignedRedeem {
        SignedRedeem(
            hash: try Bytes32([UInt8](repeating: tag, count: 32)), chainID: 31337,
            vault: world.domain.vault, sender: sender, nonce: nonce, raw: [0x02, tag],
            coins: coins)
    }

    func states(_ store: WalletDatabase, _ coins: [CoinID]) throws -> [CoinState] {
        let all = try store.coinStates()
        return coins.map { all[$0]!.state }
    }

    @Test func aRecordedRedeemSurvivesARestartWithItsBytesAndNonce() throws {
        let (store, path, coins) = try bob([10, 20])
        let redeemable = try store.redeemable(now: world.now, limit: 10)
        #expect(redeemable.map(\.coin) == coins)
        #expect(redeemable[0].proof.notes.count == 1)

        try store.recordRedeem(try redeem(coins, nonce: 7), now: world.now)
        try store.close()
        // As after kill -9 between recording and sending: the same transaction to send again.
        let reopened = try WalletDatabase(path: path)
        let open = try reopened.openRedeems()
        #expect(
            open.map(\.raw) == [[0x02, 1]] && open[0].coins == coins && open[0].state == .signed)
        #expect(try reopened.nextNonce(chainID: 31337, sender: sender) == 8)
        #expect(try states(reopened, coins) == [.redeeming, .redeeming])
        #expect(try reopened.redeemable(now: world.now, limit: 10).isEmpty)
    }

    @Test func aCoinInARedeemCannotBeNamedByAnotherAndNothingChanges() throws {
        let (store, _, coins) = try bob([10, 20])
        try store.recordRedeem(try redeem([coins[0]], nonce: 0), now: world.now)
        #expect(throws: WalletStoreError.self) {
            try store.recordRedeem(try redeem(coins, nonce: 1, tag: 2), now: world.now)
        }
        #expect(try states(store, coins) == [.redeeming, .unspent])
        #expect(try store.openRedeems().count == 1)
        #expect(try store.nextNonce(chainID: 31337, sender: sender) == 1)
    }

    @Test func eachCoinEndsInTheStateTheVaultGaveIt() throws {
        let (store, _, coins) = try bob([10, 20, 30, 40])
        let tx = try redeem(coins, nonce: 0)
        try store.recordRedeem(tx, now: world.now)
        let block = try Bytes32([UInt8](repeating: 0xB0, count: 32))
        // Not mined yet: nothing to settle.
        #expect(throws: WalletStoreError.self) {
            try store.settleRedeem(tx.hash, coins: [:], now: world.now)
        }
        try store.redeemMined(tx.hash, block: 5, hash: block, now: world.now)
        try store.settleRedeem(
            tx.hash,
            coins: [coins[0]: .redeemed, coins[1]: .conflicted, coins[2]: .expired],
            now: world.now)
        // A coin the receipt did not name waits for the next batch.
        #expect(try states(store, coins) == [.redeemed, .conflicted, .expired, .unspent])
        #expect(try store.redeemTransaction(tx.hash)?.state == .final)
        #expect(try store.openRedeems().isEmpty)
        #expect(try store.redeemable(now: world.now, limit: 10).map(\.coin) == [coins[3]])
    }

    /// A received payment says what became of its coins: received while held, redeeming with
    /// the amount in a redeem not yet final, redeemed (with the transaction) once all of it is;
    /// a coin the vault refused counts in neither.
    @Test func aReceivedPaymentSaysWhatWasRedeemedAndInWhichTransaction() throws {
        let (store, _, coins) = try bob([10, 20, 30])
        let id = try Bytes32([UInt8](repeating: 0xEE, count: 32))
        func settlement() throws -> IncomingSettlement {
            let listed = try store.incomingPayments()
            let one = try #require(try store.incomingPayment(id))
            #expect(listed.count == 1 && listed[0].settlement == one.settlement)
            return one.settlement
        }
        #expect(try settlement() == IncomingSettlement())
        #expect(try settlement().state(of: 60) == .received)

        let first = try redeem(coins, nonce: 0)
        try store.recordRedeem(first, now: world.now)
        var expected = IncomingSettlement()
        expected.redeeming = 60
        #expect(try settlement() == expected)
        #expect(try settlement().state(of: 60) == .redeeming)

        let block = try Bytes32([UInt8](repeating: 0xB0, count: 32))
        try store.redeemMined(first.hash, block: 5, hash: block, now: world.now)
        try store.settleRedeem(
            first.hash, coins: [coins[0]: .redeemed, coins[1]: .conflicted], now: world.now)
        expected = IncomingSettlement()
        expected.redeemed = 10
        expected.transactions = [first.hash]
        #expect(try settlement() == expected)
        #expect(try settlement().state(of: 60) == .partRedeemed)

        // coins[2], not named by the first receipt, went back for a later batch: it is in
        // both transactions, and the second paid it.
        let second = try redeem([coins[2]], nonce: 1, tag: 2)
        try store.recordRedeem(second, now: world.now)
        try store.redeemMined(second.hash, block: 6, hash: block, now: world.now)
        try store.settleRedeem(second.hash, coins: [coins[2]: .redeemed], now: world.now)
        expected.redeemed = 40
        expected.transactions = [first.hash, second.hash]
        #expect(try settlement() == expected)
        // 40 of 60: the vault refused 20 (conflicted).
        #expect(try settlement().state(of: 60) == .partRedeemed)
        #expect(try settlement().state(of: 40) == .redeemed)
    }

    /// A final redeem stays final: failing it is refused (its coins are not sent back to the
    /// queue), a reorg or a second mining leaves it as it is.
    @Test func aFinalRedeemCannotFailOrMoveBack() throws {
        let (store, _, coins) = try bob([10, 20])
        let tx = try redeem(coins, nonce: 0)
        try store.recordRedeem(tx, now: world.now)
        let block = try Bytes32([UInt8](repeating: 0xB0, count: 32))
        try store.redeemMined(tx.hash, block: 5, hash: block, now: world.now)
        try store.settleRedeem(
            tx.hash, coins: [coins[0]: .redeemed, coins[1]: .redeemed], now: world.now)
        #expect(
            throws: WalletStoreError(.refusedTransition(.redeem(tx.hash, state: .final, .fail)))
        ) {
            try store.redeemFailed(tx.hash, reverted: true, now: world.now)
        }
        try store.redeemReorged(tx.hash, now: world.now)
        try store.redeemMined(tx.hash, block: 6, hash: block, now: world.now)
        #expect(try store.redeemTransaction(tx.hash)?.state == .final)
        #expect(try store.redeemTransaction(tx.hash)?.blockNumber == 5)
        #expect(try states(store, coins) == [.redeemed, .redeemed])
        #expect(throws: WalletStoreError.self) {
            try store.settleRedeem(tx.hash, coins: [:], now: world.now)
        }
    }

    /// Each move starts only from the states it names, and every state but the last two is
    /// left by some move.
    @Test func theRedeemTransitionTableIsWhatTheEngineNeeds() {
        #expect(RedeemTransition.mine.from == [.signed, .replaced])
        #expect(RedeemTransition.fail.from == [.signed, .mined])
        #expect(RedeemTransition.finalize.from == [.mined])
        let left = Set(RedeemTransition.allCases.flatMap(\.from))
        #expect(Set(RedeemTransactionState.allCases).subtracting(left) == [.final, .reverted])
    }

    @Test func aRevertedRedeemGivesItsCoinsBackAndAReorgSendsItAgain() throws {
        let (store, _, coins) = try bob([10, 20])
        let tx = try redeem(coins, nonce: 0)
        try store.recordRedeem(tx, now: world.now)
        let block = try Bytes32([UInt8](repeating: 0xB0, count: 32))
        try store.redeemMined(tx.hash, block: 5, hash: block, now: world.now)
        try store.redeemReorged(tx.hash, now: world.now)
        let again = try #require(try store.openRedeems().first)
        #expect(again.state == .signed && again.blockHash == nil)

        try store.redeemMined(tx.hash, block: 6, hash: block, now: world.now)
        try store.redeemFailed(tx.hash, reverted: false, now: world.now)
        #expect(try states(store, coins) == [.unspent, .unspent])
        #expect(try store.redeemTransaction(tx.hash)?.state == .reverted)
        #expect(try store.redeemable(now: world.now, limit: 10).map(\.isolated) == [false, false])
    }

    /// A reverted batch's coins go out again alone (their issuer's asset in batches of its
    /// own); one that reverts again alone holds that asset back (ten minutes, then twice as
    /// long at each hold), and a batch of theirs that goes through clears the record.
    @Test func aRevertAloneHoldsTheIssuersAssetBackAndASettledBatchClearsIt() throws {
        let (store, _, coins) = try bob([10, 20])
        var now = world.now
        let first = try redeem(coins, nonce: 0, tag: 9)
        try store.recordRedeem(first, now: now)
        #expect(try store.redeemFailed(first.hash, reverted: true, now: now) == nil)
        #expect(try store.redeemable(now: now, limit: 10).map(\.isolated) == [true, true])
        for (round, delay) in [(0, UInt64(600)), (1, 1_200)] {
            let tx = try redeem(coins, nonce: UInt64(round + 1), tag: UInt8(round + 1))
            try store.recordRedeem(tx, now: now)
            let hold = try #require(try store.redeemFailed(tx.hash, reverted: true, now: now))
            #expect(hold.issuer == world.issuer && hold.asset == world.asset)
            #expect(hold.coins == 2 && hold.until == now + delay)
            #expect(try store.redeemHolds(now: now) == [hold])
            #expect(try store.redeemable(now: now, limit: 10).isEmpty)
            now = hold.until
            #expect(try store.redeemHolds(now: now).isEmpty)
            #expect(try store.redeemable(now: now, limit: 10).map(\.isolated) == [true, true])
        }
        let tx = try redeem(coins, nonce: 3, tag: 3)
        try store.recordRedeem(tx, now: now)
        try store.redeemMined(
            tx.hash, block: 7, hash: try Bytes32([UInt8](repeating: 0xB0, count: 32)), now: now)
        try store.settleRedeem(tx.hash, coins: [coins[0]: .retry, coins[1]: .retry], now: now)
        #expect(try store.redeemable(now: now, limit: 10).map(\.isolated) == [false, false])
    }

    @Test func aReplacementTakesTheNonceAndTheMinedOneWins() throws {
        let (store, _, coins) = try bob([10])
        let stuck = try redeem(coins, nonce: 3)
        try store.recordRedeem(stuck, now: world.now)
        let bumped = try redeem(coins, nonce: 3, tag: 9)
        try store.recordReplacement(of: stuck.hash, by: bumped, now: world.now)
        #expect(try store.redeemTransaction(stuck.hash)?.state == .replaced)
        // The stuck one was mined after all (its fees sufficed in the end): it wins.
        let block = try Bytes32([UInt8](repeating: 0xB0, count: 32))
        try store.redeemMined(stuck.hash, block: 9, hash: block, now: world.now)
        #expect(try store.redeemTransaction(bumped.hash)?.state == .replaced)
        #expect(try store.openRedeems().map(\.hash) == [stuck.hash])
        #expect(try store.nextNonce(chainID: 31337, sender: sender) == 4)
        // Replacing what is not an unmined redeem of that nonce is refused.
        #expect(throws: WalletStoreError.self) {
            try store.recordReplacement(
                of: stuck.hash, by: try redeem(coins, nonce: 4, tag: 10), now: world.now)
        }
    }

    @Test func expiredCoinsAreNotRedeemed() throws {
        let (store, _, coins) = try bob([10])
        let later = world.expiry + 1
        #expect(try store.redeemable(now: later, limit: 10).isEmpty)
        #expect(try store.expireCoins(now: later) == 1)
        #expect(try states(store, coins) == [.expired])
    }
}
