import NodeKit
import Tender
import WalletStore

/// Settles the coins a wallet holds to the vault that backs them, on one chain: what earlier
/// runs left open is sent again and watched first, then the rest goes out in batches. Every
/// step is a store transaction of its own, each recorded before the chain hears of it, so a
/// kill at any point leaves a state the next run finishes: a transaction signed but maybe
/// unsent is sent again byte for byte (its coins cannot join another), one mined is watched to
/// its confirmations, one reorged out is sent again, one reverted gives its coins back.
public struct SettlementEngine: Sendable {
    public let wallet: Wallet
    public let chain: any SettlementChain
    public let clock: any WallClock
    /// Blocks on top of a receipt's before its coins are settled.
    public var confirmations: UInt64
    public var planner: BatchPlanner
    /// Coins taken per run (the rest wait for the next).
    public var maxCoins: Int
    /// The lowest nonce a new batch may take: another wallet of this node with the same key
    /// on the same chain (another vault) may have recorded a transaction not yet sent.
    public var nonceFloor: UInt64 = 0
    /// How long to wait after a pass that failed on the way to the chain.
    public var backoff = Backoff()
    /// Seconds a signed transaction may stay out of every block before it is replaced by one
    /// with the same nonce and higher fees (stuck under a rising base fee, or a low tip).
    public var replaceAfter: UInt64 = 180
    /// Whether coins worth less than the gas of redeeming them wait (`DustPolicy`).
    public var dust: DustPolicy = .wait
    /// Which held coins go out in new batches (`RedeemPolicy`); what is open is followed
    /// whatever it says.
    public var redeem: RedeemPolicy = .all
    /// How the wallet's amounts read, for what the events say of them.
    public var units = Denominations()

    public init(
        wallet: Wallet, chain: any SettlementChain, clock: any WallClock,
        confirmations: UInt64 = 2, planner: BatchPlanner = BatchPlanner(), maxCoins: Int = 20_000
    ) {
        self.wallet = wallet
        self.chain = chain
        self.clock = clock
        self.confirmations = confirmations
        self.planner = planner
        self.maxCoins = maxCoins
    }

    /// What a pass did, for progress and the summary.
    public enum Event: Sendable, Equatable {
        /// A redeem transaction signed and recorded, its coins redeeming; not yet sent.
        case recorded(tx: Bytes32, coins: Int)
        case sent(tx: Bytes32, coins: Int, resent: Bool)
        case mined(tx: Bytes32, block: UInt64)
        case reorged(tx: Bytes32)
        /// Unmined for `replaceAfter`: `by` (same nonce, higher fees) takes its place.
        case replaced(tx: Bytes32, by: Bytes32)
        /// Another transaction of this key took its nonce: it will never be mined; its coins
        /// (none for a fraud proof) wait for the next batch.
        case dropped(tx: Bytes32, coins: Int)
        /// Mined and reverted: its coins wait for the next batch, in batches of their issuer's
        /// asset alone.
        case reverted(tx: Bytes32, coins: Int)
        /// A batch of one issuer's asset alone reverted: its coins wait until the hold ends.
        case heldBack(RedeemHold)
        /// `worth`: what the vault paid for the redeemed coins, as people read it ("0.35 ETH";
        /// empty when none was redeemed).
        case settled(
            tx: Bytes32, redeemed: Int, conflicted: Int, expired: Int, retry: Int, worth: String)
        /// The vault refused coins of `tx` for these reasons (how many each; nil: a code this
        /// node does not know), besides a coin already redeemed by an earlier batch.
        case refusedByVault(tx: Bytes32, reasons: [VaultRejection?: Int])
        case doubleSpend(RedeemOutcome.DoubleSpend)
        /// The token of `tx`'s coins refused their payout: the coins are redeemed and the vault
        /// owes the amount to this node's key, to claim once the token pays again.
        case payoutDeferred(tx: Bytes32, RedeemOutcome.DeferredPayout)
        /// The vault owed this node's key `amount` of `asset` (deferred payouts) and the token
        /// pays again: a claim of it signed and sent.
        case claimSent(asset: Address, amount: Amount, tx: Bytes32)
        /// The vault owes `amount` of `asset` and the token still refuses: claimed later.
        case stillOwed(asset: Address, amount: Amount, reason: String)
        case expired(coins: Int)
        /// Coins worth `value` in all wait: redeeming them now would add `fee` (at `gasPrice`
        /// a unit of gas), more than each is worth.
        case dust(coins: Int, value: Amount, fee: Amount, gasPrice: Amount)
        /// The vault's collateral read and saved for open-mode acceptance.
        case collateral(issuers: Int, block: UInt64)
        /// A token's symbol and decimals read from its contract (nil: it has none; its
        /// amounts stay in base units).
        case denomination(asset: Address, Denomination?)
        /// A pass failed on the way to the chain (nothing changed); the next comes after `wait`.
        case retrying(reason: String, wait: Duration)
        /// A payment without a receipt whose transfer the vault shows on chain: now spent.
        case paymentOnChain(requestID: Bytes32)
        /// A payment without a receipt whose coins expired unredeemed: its inputs are back.
        case paymentLapsed(requestID: Bytes32, inputs: Int)
        /// A fraud proof of the double spend of `coin` signed, recorded and sent.
        case fraudProofSent(coin: CoinID, tx: Bytes32)
        /// The vault has the double spend of `coin` by `owner` on record.
        case fraudProven(coin: CoinID, owner: Address, byThisNode: Bool)
        /// The chain refuses a fraud proof this wallet holds (nothing recorded).
        case fraudProofRefused(coin: CoinID, FraudProofRefusal)
    }

    /// How the chain refused a fraud proof.
    public enum FraudProofRefusal: Sendable, Equatable, CustomStringConvertible {
        /// Mined and reverted: the vault refused it.
        case reverted
        /// Refused before it was sent (the node's simulation of it failed): the error's words.
        case refusedToSimulate(String)

        public var description: String {
            switch self {
            case .reverted: "reverted"
            case .refusedToSimulate(let reason): reason
            }
        }
    }

    /// One pass: expire, resume what is open, send what is new (only when nothing of this
    /// chain is still open, so a batch never races its predecessor for a nonce). Returns the
    /// transactions still open on this chain.
    public func pass(
        events: @Sendable (Event) -> Void = { _ in }
    ) async throws(NodeError) -> Int {
        try await settleUnsettledPayments(events: events)
        let expired = try wallet.expireCoins(now: clock.now())
        if expired > 0 { events(.expired(coins: expired)) }
        let open = try mine()
        // Read once, before any receipt: a nonce the chain counts as mined with none of that
        // nonce's transactions in a block went to another transaction (see `unmined`).
        let minedNonce = open.contains { $0.state == .signed } ? try await chain.minedNonce() : nil
        for record in open { try await watch(record, minedNonce: minedNonce, events: events) }
        let left = try mine()
        guard left.isEmpty else { return left.count }
        try await submitFraudProofs(events: events)
        try await sendNewBatches(events: events)
        return try mine().count
    }

    /// Passes until nothing of this chain is open, at most `passes` times, `pause` apart. A
    /// pass that fails on the way to the chain (unreachable, timed out, an answer that makes
    /// no sense) changes nothing: the next is tried after a backoff with jitter, until the
    /// passes run out; the last failure is thrown. Any other failure is thrown at once.
    /// `passesBefore`: passes a caller already ran (a loop running one at a time), so the
    /// collateral is still read every `collateralEvery` passes, not at each.
    public func run(
        passes: Int, pause: Duration, passesBefore: Int = 0,
        events: @Sendable (Event) -> Void = { _ in }
    ) async throws(NodeError) -> Int {
        var open = 0
        var failures = 0
        var wait = Duration.zero
        var random = SystemRandomNumberGenerator()
        for attempt in 0..<max(1, passes) {
            if attempt > 0 {
                // Cancelled (`sync --watch` stopped, the node shutting down): no more passes.
                do { try await Task.sleep(for: failures > 0 ? wait : pause) } catch { break }
            }
            do throws(NodeError) {
                if (passesBefore + attempt) % Self.collateralEvery == 0 || failures > 0 {
                    let snapshot = try await refreshCollateral()
                    events(
                        .collateral(
                            issuers: Set(snapshot.collateral.keys.map(\.issuer)).count,
                            block: snapshot.block))
                    for (asset, denomination) in try await readDenominations(of: snapshot) {
                        events(.denomination(asset: asset, denomination))
                    }
                    try await claimOwed(tokens: snapshot, events: events)
                }
                open = try await pass(events: events)
                failures = 0
            } catch {
                guard case .io(let reason) = error.kind, attempt + 1 < max(1, passes) else {
                    throw error
                }
                failures += 1
                wait = backoff.delay(afterFailures: failures, pause: pause, using: &random)
                events(.retrying(reason: reason, wait: wait))
                continue
            }
            if open == 0 { break }
        }
        return open
    }

    /// How long past a payment's window the chain must still show its inputs unconsumed before
    /// they come back: the vault judges expiry by block time, which may trail this clock.
    public static let lapseMargin: UInt64 = 3_600

    /// What offline could not settle (Docs/PROTOCOL.md §11, "Payments settled by the chain"):
    /// a pending or in-doubt payment whose transfer the vault shows consuming its inputs is
    /// spent; one whose window passed with none of its inputs consumed lapses.
    public func settleUnsettledPayments(
        events: @Sendable (Event) -> Void = { _ in }
    ) async throws(NodeError) {
        let unsettled = try wallet.unsettledPayments()
        guard !unsettled.isEmpty else { return }
        let coins = Set(unsettled.flatMap(\.inputs.keys)).sorted()
        let consumed = try await chain.consumed(vault: wallet.domain.vault, coins: coins)
        let now = clock.now()
        for payment in unsettled {
            if payment.inputs.contains(where: { consumed[$0.key] == $0.value }) {
                try wallet.settleFromChain(payment.requestID, now: now)
                events(.paymentOnChain(requestID: payment.requestID))
                continue
            }
            let untouched = payment.inputs.keys.allSatisfy { (consumed[$0] ?? .zero) == .zero }
            let (closes, overflow) = payment.window.addingReportingOverflow(Self.lapseMargin)
            guard untouched, !overflow, now >= closes else { continue }
            do {
                try wallet.lapse(payment.requestID, now: now)
                events(.paymentLapsed(requestID: payment.requestID, inputs: payment.inputs.count))
            } catch {
                // Its change went on (paid or being redeemed): it stays until the chain says.
                guard case .rejected = error.kind else { throw error }
            }
        }
    }

    /// Passes between two readings of the vault's collateral in a long run.
    static let collateralEvery = 30

    /// Reads the vault's collateral and saves it as the wallet's snapshot.
    @discardableResult
    public func refreshCollateral() async throws(NodeError) -> CollateralSnapshot {
        let snapshot = try await chain.collateral(vault: wallet.domain.vault, now: clock.now())
        try wallet.saveCollateral(snapshot)
        return snapshot
    }

    /// Reads the symbol and decimals of each token in `snapshot` the wallet has none for yet,
    /// and saves those that answer; a token without them is asked again at the next reading.
    public func readDenominations(
        of snapshot: CollateralSnapshot
    ) async throws(NodeError) -> [(Address, Denomination?)] {
        let known = try wallet.tokenDenominations()
        let tokens = Set(snapshot.collateral.keys.map(\.asset)).filter {
            $0 != .zero && known[$0] == nil
        }
        var read: [(Address, Denomination?)] = []
        for token in tokens.sorted() {
            // Display only: a token that cannot be read now never holds up settlement.
            let denomination = try? await chain.denomination(ofToken: token)
            if let denomination {
                try wallet.saveDenomination(denomination, of: token, readAt: clock.now())
            }
            read.append((token, denomination))
        }
        return read
    }

    /// The nonce a new transaction of this wallet takes: past every one it recorded, every one
    /// the chain counts (pending included) and the floor its sibling wallets set.
    func nextNonce() async throws(NodeError) -> UInt64 {
        max(
            try wallet.nextNonce(chainID: chain.chainID, sender: chain.sender) ?? 0,
            try await chain.pendingNonce(), nonceFloor)
    }

    private func sendNewBatches(events: @Sendable (Event) -> Void) async throws(NodeError) {
        let coins = try wallet.redeemableCoins(now: clock.now(), limit: maxCoins, policy: redeem)
            .filter { $0.domain.chainID == chain.chainID }
        guard !coins.isEmpty else { return }
        let weighed = dust == .wait && coins.contains { $0.value != nil }
        let price = weighed ? try await chain.gasPrice() : nil
        let plan: RedeemPlan
        do { plan = try planner.plan(coins, gasPrice: price) } catch {
            throw NodeError(.io("\(error)"))
        }
        if let price, !plan.waiting.isEmpty {
            let sum = { (amounts: [Amount]) in checkedSum(amounts) ?? .max }
            events(
                .dust(
                    coins: plan.waiting.count, value: sum(plan.waiting.map(\.value)),
                    fee: sum(plan.waiting.map(\.fee)), gasPrice: price))
        }
        guard !plan.batches.isEmpty else { return }
        var nonce = try await nextNonce()
        // What this pass's batches so far may cost: the balance the chain shows does not
        // count them until they are mined.
        var committed: Amount = 0
        for batch in plan.batches {
            let signed = try await chain.signRedeem(
                vault: batch.domain.vault, calldata: batch.batch.calldata, nonce: nonce,
                estimatedGas: batch.estimatedGas)
            // Checked before it is recorded: a batch that cannot be paid for would hold its
            // coins as being redeemed, and a payer could no longer spend them.
            let funds = try await chain.funds(toSend: signed.raw)
            let total = checkedSum([committed, funds.needed]) ?? .max
            guard funds.held >= total else {
                throw NodeError(
                    .noGas(
                        account: chain.sender, chainID: chain.chainID, needed: funds.needed,
                        held: funds.held > committed ? funds.held - committed : 0),
                    note:
                        "this batch was not sent: its \(batch.coins.count) coin(s) stay as they were (spendable), and the next sync sends them once the gas is there"
                )
            }
            let redeem = SignedRedeem(
                hash: signed.hash, chainID: chain.chainID, vault: batch.domain.vault,
                sender: chain.sender, nonce: nonce, raw: signed.raw, coins: batch.coins)
            // Recorded first: from here on a restart sends these very bytes, nothing new.
            try wallet.recordRedeem(redeem, now: clock.now())
            events(.recorded(tx: signed.hash, coins: batch.coins.count))
            try await chain.send(raw: signed.raw)
            events(.sent(tx: signed.hash, coins: batch.coins.count, resent: false))
            committed = total
            nonce += 1
        }
    }
}
