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
        try openWallets().paying(
            domain: domain, payeeNamed: payeeNamed, asset: asset, now: now, amount: amount,
            format: amounts(of: asset))
    }

    /// `error` (a refusal to pay in `domain`), noting what this node holds of `asset` in its
    /// other domains (`NodeWallets.noting`); `error` as it is when they cannot be read.
    public func noting(
        _ error: NodeError, paying domain: Domain, asset: Address, now: UInt64,
        payeeNamed: Bool
    ) -> NodeError {
        guard let wallets = try? openWallets() else { return error }
        return wallets.noting(
            error, paying: domain, asset: asset, now: now, payeeNamed: payeeNamed,
            format: amounts(of: asset))
    }

    /// An amount of `asset` held by a wallet, as that wallet's chain names it.
    private func amounts(of asset: Address) -> (Wallet, Amount) -> String {
        { wallet, amount in displayDenominations(for: wallet).format(amount, of: asset) }
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
