import Tender

/// Why the store refused an operation. Nothing was written when one is thrown.
public struct WalletStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// A coin chosen for a payment is no longer unspent (reserved by another payment).
        case coinNotSpendable(CoinID)
        /// The coin is not unspent (already in a redeem, settled, spent or expired).
        case coinNotRedeemable(CoinID)
        case paymentNotFound(Bytes32)
        case paymentExists(Bytes32)
        /// The database belongs to another wallet or another chain.
        case identityMismatch(String)
        case notInitialised
        /// A row that cannot be decoded: the file was edited or corrupted.
        case corrupt(String)
        case rejected(ProtocolError)
        /// A payment the node would make on its own that no spending limit allows.
        case overLimit(SpendingRefusal)
        /// A state change the record's transition table does not allow from where it is.
        case refusedTransition(RefusedTransition)
    }

    /// A transaction record asked to move where its table does not let it (nil: no record).
    public enum RefusedTransition: Equatable, Sendable, CustomStringConvertible {
        case redeem(Bytes32, state: RedeemTransactionState?, RedeemTransition)
        /// A replacement of a redeem that is not an unmined one with that nonce and coins.
        case redeemReplacement(Bytes32, nonce: UInt64)
        case fraudProof(CoinID, state: FraudProofState?, FraudProofTransition)

        public var description: String {
            switch self {
            case .redeem(let tx, let state, let transition):
                "redeem \(tx.short) is \(state?.rawValue ?? "not recorded"): it cannot \(transition)"
            case .redeemReplacement(let tx, let nonce):
                "no unmined redeem \(tx.short) with nonce \(nonce) to replace"
            case .fraudProof(let coin, let state, let transition):
                "the fraud proof of \(coin.short) is \(state?.rawValue ?? "not recorded"): it cannot \(transition)"
            }
        }
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    /// A coin chosen for a payment was reserved by another payment first.
    public var isCoinTaken: Bool {
        if case .coinNotSpendable = kind { true } else { false }
    }

    public var description: String {
        switch kind {
        case .coinNotSpendable(let coin):
            "coin \(coin.short) is not spendable (already reserved or spent)"
        case .coinNotRedeemable(let coin):
            "coin \(coin.short) cannot be redeemed (already in a redeem, settled, spent or expired)"
        case .paymentNotFound(let id): "no payment with request id \(id.short)"
        case .paymentExists(let id): "a payment with request id \(id.short) already exists"
        case .identityMismatch(let why): "wallet database mismatch: \(why)"
        case .notInitialised: "the wallet database has no identity yet"
        case .corrupt(let what): "wallet database is corrupt: \(what)"
        case .rejected(let error): error.description
        case .overLimit(let refusal): refusal.description
        case .refusedTransition(let refused): refused.description
        }
    }
}
