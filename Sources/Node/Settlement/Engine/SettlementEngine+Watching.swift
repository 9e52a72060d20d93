import NodeKit
import Tender
import WalletStore

/// The redeem transactions this wallet has open, watched to their end: into a block and past
/// its confirmations, dropped and sent again, stuck and replaced, reverted or reorged away.
extension SettlementEngine {
    /// The open redeems this engine's chain and key sent.
    func mine() throws(NodeError) -> [RedeemTransactionRecord] {
        try wallet.openRedeems().filter {
            $0.redeem.chainID == chain.chainID && $0.redeem.sender == chain.sender
        }
    }

    /// Moves a transaction along if it is in a block; if not, sees to it (`unmined`).
    /// `minedNonce`: the chain's mined count, read before this pass's receipts (nil when no
    /// open transaction is unmined).
    func watch(
        _ record: RedeemTransactionRecord, minedNonce: UInt64?,
        events: @Sendable (Event) -> Void
    ) async throws(NodeError) {
        let now = clock.now()
        guard let receipt = try await chain.receipt(of: record.hash) else {
            guard record.state == .signed, let minedNonce else {
                try wallet.redeemReorged(record.hash, now: now)
                events(.reorged(tx: record.hash))
                try await chain.send(raw: record.raw)
                events(.sent(tx: record.hash, coins: record.coins.count, resent: true))
                return
            }
            try await unmined(record, minedNonce: minedNonce, now: now, events: events)
            return
        }
        if record.state == .signed || record.blockHash != receipt.blockHash {
            if record.state == .mined { try wallet.redeemReorged(record.hash, now: now) }
            try wallet.redeemMined(
                record.hash, block: receipt.blockNumber, hash: receipt.blockHash, now: now)
            events(.mined(tx: record.hash, block: receipt.blockNumber))
        }
        let head = try await chain.headBlock()
        guard head >= receipt.blockNumber + confirmations - 1 else { return }
        // Still the canonical block at that height: else a reorg moved it, watch again.
        guard try await chain.blockHash(at: receipt.blockNumber) == receipt.blockHash else {
            try wallet.redeemReorged(record.hash, now: now)
            events(.reorged(tx: record.hash))
            return
        }
        guard receipt.succeeded else {
            let hold = try wallet.redeemFailed(record.hash, reverted: true, now: now)
            events(.reverted(tx: record.hash, coins: record.coins.count))
            if let hold { events(.heldBack(hold)) }
            return
        }
        let outcome: RedeemOutcome
        do { outcome = try RedeemOutcome(logs: receipt.logs, vault: record.redeem.vault) } catch {
            throw NodeError(.io("redeem \(record.hash.short): \(error)"))
        }
        var settlements: [CoinID: CoinSettlement] = [:]
        for coin in record.coins {
            settlements[coin] = Self.settlement(outcome.fates[coin])
        }
        let holds = try wallet.settleRedeem(record.hash, coins: settlements, now: now)
        let counts = settlements.values
        events(
            .settled(
                tx: record.hash, redeemed: counts.filter { $0 == .redeemed }.count,
                conflicted: counts.filter { $0 == .conflicted }.count,
                expired: counts.filter { $0 == .expired }.count,
                retry: counts.filter { $0 == .retry || $0 == .uncovered }.count,
                worth: try worth(of: outcome, coins: record.coins)))
        var reasons: [VaultRejection?: Int] = [:]
        for coin in record.coins {
            guard case .rejected(_, let reason)? = outcome.fates[coin], reason != .alreadyRedeemed
            else { continue }
            reasons[reason, default: 0] += 1
        }
        if !reasons.isEmpty { events(.refusedByVault(tx: record.hash, reasons: reasons)) }
        for hold in holds { events(.heldBack(hold)) }
        for doubleSpend in outcome.doubleSpends { events(.doubleSpend(doubleSpend)) }
        for deferred in outcome.deferredPayouts {
            events(.payoutDeferred(tx: record.hash, deferred))
        }
    }

    /// What the vault paid for `coins` in `outcome`, per asset, as people read it.
    private func worth(of outcome: RedeemOutcome, coins: [CoinID]) throws(NodeError) -> String {
        var paid: [CoinID: Amount] = [:]
        for coin in coins {
            if case .redeemed(let amount)? = outcome.fates[coin] { paid[coin] = amount }
        }
        guard !paid.isEmpty else { return "" }
        let assets = try wallet.assets(of: Array(paid.keys))
        var sums: [Address: Amount] = [:]
        for (coin, amount) in paid {
            guard let asset = assets[coin] else { continue }
            sums[asset] = checkedSum([sums[asset] ?? 0, amount]) ?? .max
        }
        return sums.keys.sorted().map { units.format(sums[$0]!, of: $0) }.joined(separator: ", ")
    }

    /// A signed redeem in no block: a transaction it replaced may be mined instead; its nonce
    /// taken by another transaction of this key drops it (its coins go to the next batch);
    /// unmined for `replaceAfter` it is replaced with higher fees, else sent again as it is.
    private func unmined(
        _ record: RedeemTransactionRecord, minedNonce: UInt64, now: UInt64,
        events: @Sendable (Event) -> Void
    ) async throws(NodeError) {
        let earlier = try wallet.replacedRedeems(of: record)
        for replaced in earlier {
            if let receipt = try await chain.receipt(of: replaced.hash) {
                try wallet.redeemMined(
                    replaced.hash, block: receipt.blockNumber, hash: receipt.blockHash, now: now)
                events(.mined(tx: replaced.hash, block: receipt.blockNumber))
                return
            }
        }
        if minedNonce > record.nonce {
            try wallet.redeemFailed(record.hash, reverted: false, now: now)
            events(.dropped(tx: record.hash, coins: record.coins.count))
            return
        }
        // The newest of the nonce's transactions pays the most (back to `signed` after a
        // reorg, an older one may be the record): the bump starts from it.
        let newest = earlier.first.flatMap { $0.signedAt > record.signedAt ? $0 : nil } ?? record
        guard stuck(since: newest.signedAt, now: now) else {
            try await chain.send(raw: record.raw)
            events(.sent(tx: record.hash, coins: record.coins.count, resent: true))
            return
        }
        let signed = try await chain.signReplacement(of: newest.raw)
        let replacement = SignedRedeem(
            hash: signed.hash, chainID: record.redeem.chainID, vault: record.redeem.vault,
            sender: record.redeem.sender, nonce: record.nonce, raw: signed.raw,
            coins: record.coins)
        // Recorded first, as every transaction: a restart sends the replacement again.
        try wallet.recordReplacement(of: record.hash, by: replacement, now: now)
        events(.replaced(tx: record.hash, by: signed.hash))
        try await chain.send(raw: signed.raw)
        events(.sent(tx: signed.hash, coins: record.coins.count, resent: false))
    }

    /// Whether a transaction signed at `signedAt` has waited for a block for `replaceAfter`.
    func stuck(since signedAt: UInt64, now: UInt64) -> Bool {
        let (due, overflow) = signedAt.addingReportingOverflow(replaceAfter)
        return !overflow && now >= due
    }

    /// A coin's final state from the vault's word (Docs/VAULT.md, "Outcomes").
    static func settlement(_ fate: RedeemOutcome.Fate?) -> CoinSettlement {
        switch fate {
        case .redeemed?: return .redeemed
        case .rejected(_, let reason)?:
            switch reason {
            // Only this wallet's key can redeem its coin: "already" means by an earlier batch.
            case .alreadyRedeemed?: return .redeemed
            case .expired?: return .expired
            case .insufficientCollateral?: return .uncovered
            default: return .conflicted
            }
        case nil: return .retry
        }
    }
}
