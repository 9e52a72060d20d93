import Foundation
import NodeKit
import Settlement
import Tender

/// What a person reads of the sync engine's events: the node's log and `tender sync` say the
/// same.
public enum SettlementEventText {
    /// "1 coin", "3 coins".
    static func count(_ coins: Int) -> String { coins == 1 ? "1 coin" : "\(coins) coins" }

    /// What a person reads of `event`.
    public static func line(for event: SettlementEngine.Event) -> String {
        let line: String
        switch event {
        case .recorded(let tx, let coins):
            line = "recorded \(tx.hex) (\(count(coins)))"
        case .sent(let tx, let coins, let resent):
            line = "\(resent ? "sent again" : "sent") \(tx.hex) (\(count(coins)))"
        case .mined(let tx, let block): line = "mined \(tx.hex) in block \(block)"
        case .reorged(let tx): line = "reorg: \(tx.hex) left the chain; it is sent again"
        case .replaced(let tx, let replacement):
            line =
                "\(tx.hex) waited too long for a block: replaced by \(replacement.hex) (higher fees)"
        case .dropped(let tx, let coins):
            line =
                "\(tx.hex) will never be mined (another transaction of this key took its nonce)\(coins > 0 ? "; its \(count(coins)) wait for the next batch" : "")"
        case .reverted(let tx, let coins):
            line =
                "reverted: \(tx.hex); its \(count(coins)) wait for the next batches, one per issuer and asset"
        case .heldBack(let hold):
            let why =
                hold.reason == .reverted
                ? "the redeem of issuer \(hold.issuer)'s asset \(hold.asset) reverted alone"
                : "the vault refused coins of issuer \(hold.issuer)'s asset \(hold.asset) for want of collateral"
            line =
                "held back: \(why); its \(hold.coins) coin(s) wait until \(UTCTime.format(hold.until)) while the others settle"
        case .settled(let tx, let redeemed, let conflicted, let expired, let retry, let worth):
            let paid = worth.isEmpty ? "" : " (\(worth) paid to this node's address)"
            line =
                "settled \(tx.hex): \(redeemed) redeemed\(paid), \(conflicted) conflicted, \(expired) expired, \(retry) for the next batch"
        case .refusedByVault(let tx, let reasons):
            let named = reasons.map { ($0.key?.name ?? "an unknown reason", $0.value) }
                .sorted { $0.0 < $1.0 }.map { "\($0.0) × \($0.1)" }
            line = "the vault refused coins of \(tx.hex): \(named.joined(separator: ", "))"
        case .doubleSpend(let spend):
            line =
                "double spend of coin \(spend.coin.hex) by \(spend.owner): the vault recorded transfer \(spend.recorded.hex), this one presented \(spend.presented.hex)"
        case .payoutDeferred(let tx, let deferred):
            line =
                "token \(deferred.asset) refused the payout of \(tx.hex) (\(deferred.amount) base units): the coins are redeemed and the vault owes this node's key \(deferred.owed) in all, paid by the vault's claim(asset) once the token pays again"
        case .claimSent(let asset, let amount, let tx):
            line =
                "the vault owed this node's key \(amount) base units of token \(asset) and the token pays again: claimed in \(tx.hex)"
        case .stillOwed(let asset, let amount, let reason):
            line =
                "the vault owes this node's key \(amount) base units of token \(asset); the token still refuses (\(reason)): claimed at a later pass"
        case .expired(let coins): line = "\(count(coins)) expired unredeemed"
        case .dust(let coins, let value, let fee, let price):
            line =
                "\(coins) coin(s) worth \(value) wei in all wait: redeeming them now would add \(fee) wei of gas (\(price) wei a unit), more than they are worth; they go when gas is cheaper or more coins join them (the chain's dust = \"redeem\" in chains.toml sends them anyway)"
        case .collateral(let issuers, let block):
            line = "collateral of \(issuers) issuer(s) read at block \(block)"
        case .denomination(let asset, let denomination):
            line =
                denomination.map { "token \(asset) is \($0)" }
                ?? "token \(asset) has no symbol and decimals: its amounts are shown in base units"
        case .paymentOnChain(let id):
            line = "payment \(id.hex): its transfer is on chain; spent (no receipt needed)"
        case .paymentLapsed(let id, let inputs):
            line =
                "payment \(id.hex) lapsed: its coins expired unredeemed; its \(inputs) input coin(s) are this wallet's again"
        case .fraudProofSent(let coin, let tx):
            line = "fraud proof of coin \(coin.hex) sent: \(tx.hex)"
        case .fraudProven(let coin, let owner, let mine):
            line =
                "the vault has the double spend of coin \(coin.hex) by \(owner) on record\(mine ? " (this node's proof)" : "")"
        case .fraudProofRefused(let coin, let reason):
            line = "fraud proof of coin \(coin.hex) refused by the chain: \(reason)"
        case .retrying(let reason, let wait):
            line = "could not reach the chain (\(reason)); trying again in \(wait.roundedSeconds) s"
        }
        return line
    }
}

extension Duration {
    /// Seconds, to a tenth.
    public var roundedSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return String(format: "%.1f", seconds)
    }
}
