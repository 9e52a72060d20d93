import Foundation
import NodeKit
import Tender

/// Which of a node's wallets pays (Docs/PROTOCOL.md §11, "Paying from several domains"): a
/// payee's code names its domain; otherwise the person may, and when nobody does, the home
/// wallet pays if it covers the amount, else the only other wallet that does.
extension NodeHost {
    /// The wallet that pays `amount` of `asset` (as that wallet reads the amount typed: its
    /// chain's coin; nil when it cannot) in `domain` (named by the payee's code or the
    /// person), else the one the rule above picks. A named domain this node holds nothing in
    /// is an insufficient-funds refusal that lists what it holds elsewhere.
    public func payingWallet(
        domain: Domain?, payeeNamed: Bool, asset: Address, now: UInt64,
        amount: (Wallet) -> Amount?
    ) throws(NodeError) -> Wallet {
        let wallets = try openWallets()
        if let domain {
            if let wallet = wallets.all.first(where: { $0.domain == domain }) { return wallet }
            let error = NodeError(
                .rejected(
                    ProtocolError(
                        .insufficientFunds(
                            asset: asset, requested: amount(wallets.home) ?? 0, available: 0))))
            throw noting(
                error, paying: domain, asset: asset, now: now, payeeNamed: payeeNamed,
                wallets: wallets)
        }
        func covering(_ wallet: Wallet) -> Bool {
            guard let amount = amount(wallet) else { return false }
            return ((try? wallet.balances(now: now))?[asset]?.spendable ?? 0) >= amount
        }
        if covering(wallets.home) { return wallets.home }
        let others = wallets.others.filter(covering)
        guard others.count <= 1 else {
            throw NodeError(
                .usage(
                    "\(others.count) vaults other than the home one hold enough to pay this: \(others.map { "chain \($0.domain.chainID), vault \($0.domain.vault)" }.joined(separator: "; "))"
                ), resolvedBy: .nameDomain)
        }
        return others.first ?? wallets.home
    }

    /// `error` (a refusal to pay in `domain`), noting what this node holds of `asset` in its
    /// other domains and, unless the payee named `domain` (`payeeNamed`), how to pay with
    /// it; `error` as it is when there is nothing elsewhere or it is not an insufficient-funds
    /// refusal.
    public func noting(
        _ error: NodeError, paying domain: Domain, asset: Address, now: UInt64,
        payeeNamed: Bool, wallets: NodeWallets? = nil
    ) -> NodeError {
        guard case .rejected(let refusal) = error.kind,
            case .insufficientFunds = refusal.kind,
            let wallets = wallets ?? (try? openWallets())
        else { return error }
        let held = wallets.all.filter { $0.domain != domain }.compactMap {
            wallet -> String? in
            guard let spendable = (try? wallet.balances(now: now))?[asset]?.spendable,
                spendable > 0
            else { return nil }
            let amount = displayDenominations(for: wallet).format(spendable, of: asset)
            return "\(amount) on \(wallet.domain)"
        }
        guard !held.isEmpty else { return error }
        if payeeNamed {
            return error.noting(
                "the payee asks to be paid in \(domain); held in other vaults, which it did not ask for: \(held.joined(separator: "; "))"
            )
        }
        return NodeError(
            error.kind,
            note:
                "held in other vaults: \(held.joined(separator: "; ")); a payee takes a vault's notes only if it takes that vault",
            resolvedBy: .nameDomain)
    }

    /// The wallet whose payments out include `requestID` (any vault's), else the home
    /// wallet, whose lookup then says it is unknown.
    public func walletThatPaid(_ requestID: Bytes32) throws(NodeError) -> Wallet {
        let wallets = try openWallets()
        for wallet in wallets.all where (try? wallet.outgoingPayment(requestID)) != nil {
            return wallet
        }
        return wallets.home
    }
}
