import Tender

/// Which of a node's wallets pays (Docs/PROTOCOL.md §11, "Paying from several domains"): a
/// payee's code names its domain; otherwise the payer may, and when nobody does, the home
/// wallet pays if it covers the amount, else the only other wallet that does. The CLI and the
/// API both choose by it.
extension NodeWallets {
    /// The wallet that pays `amount` of `asset` (as that wallet reads the amount: its chain's
    /// coin; nil when it cannot) in `domain` (named by the payee's code, `payeeNamed`, or the
    /// payer), else the one the rule above picks. A named domain this node holds nothing in is
    /// an insufficient-funds refusal that lists what it holds elsewhere, each amount as
    /// `format` says it.
    public func paying(
        domain: Domain?, payeeNamed: Bool, asset: Address, now: UInt64,
        amount: (Wallet) -> Amount?, format: (Wallet, Amount) -> String
    ) throws(NodeError) -> Wallet {
        if let domain {
            if let wallet = all.first(where: { $0.domain == domain }) { return wallet }
            let error = NodeError(
                .rejected(
                    ProtocolError(
                        .insufficientFunds(
                            asset: asset, requested: amount(home) ?? 0, available: 0))))
            throw noting(
                error, paying: domain, asset: asset, now: now, payeeNamed: payeeNamed,
                format: format)
        }
        func covering(_ wallet: Wallet) -> Bool {
            guard let amount = amount(wallet) else { return false }
            return ((try? wallet.balances(now: now))?[asset]?.spendable ?? 0) >= amount
        }
        if covering(home) { return home }
        let covered = others.filter(covering)
        guard covered.count <= 1 else {
            throw NodeError(
                .usage(
                    "\(covered.count) vaults other than the home one hold enough to pay this: \(covered.map { "chain \($0.domain.chainID), vault \($0.domain.vault)" }.joined(separator: "; "))"
                ), resolvedBy: .nameDomain)
        }
        return covered.first ?? home
    }

    /// `error` (a refusal to pay in `domain`), noting what this node holds of `asset` in its
    /// other domains and, unless the payee named `domain` (`payeeNamed`), how to pay with
    /// it; `error` as it is when there is nothing elsewhere or it is not an insufficient-funds
    /// refusal.
    public func noting(
        _ error: NodeError, paying domain: Domain, asset: Address, now: UInt64,
        payeeNamed: Bool, format: (Wallet, Amount) -> String
    ) -> NodeError {
        guard case .rejected(let refusal) = error.kind,
            case .insufficientFunds = refusal.kind
        else { return error }
        let held = held(asset, besides: domain, now: now, format: format)
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

    /// What the wallets other than `domain`'s can spend of `asset` now, each as
    /// "`format`'s amount on chain N, vault 0x…".
    public func held(
        _ asset: Address, besides domain: Domain, now: UInt64,
        format: (Wallet, Amount) -> String
    ) -> [String] {
        all.filter { $0.domain != domain }.compactMap { wallet -> String? in
            guard let spendable = (try? wallet.balances(now: now))?[asset]?.spendable,
                spendable > 0
            else { return nil }
            return "\(format(wallet, spendable)) on \(wallet.domain)"
        }
    }
}
