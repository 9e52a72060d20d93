/// How a payment differs from what it must be (its payee, its request, its own coins), as
/// facts: each front end words the amounts in its asset's units.
public enum PaymentMismatch: Equatable, Sendable {
    /// It pays another wallet than this one.
    case payee(paid: Address, wallet: Address)
    /// A wallet's payment to itself.
    case selfPayment
    case amount(paid: Amount, requested: Amount, asset: Address)
    case asset(paid: Address, requested: Address)
    /// It names no coins at all.
    case noCoins
    /// A coin it names is not an unspent coin of its proof.
    case notUnspent(CoinID)
    /// A coin paid is owned by another wallet than the payee.
    case coinOwner(CoinID, owner: Address)
    case coinAsset(CoinID, asset: Address, paid: Address)
    /// The coins paid do not add up to the amount the payment states.
    case sum(credited: Amount, stated: Amount, asset: Address)
    /// A receipt acknowledges another payment than the one recorded for its request.
    case receiptDigest(acknowledged: Bytes32, payment: Bytes32)

    public func description(in wording: some ErrorWording) -> String {
        switch self {
        case .payee(let paid, let wallet): "it pays \(paid), this wallet is \(wallet)"
        case .selfPayment: "a wallet cannot pay itself"
        case .amount(let paid, let requested, let asset):
            "amount \(wording.amount(paid, of: asset)), requested \(wording.amount(requested, of: asset))"
        case .asset(let paid, let requested): "asset \(paid), requested \(requested)"
        case .noCoins: "it names no coins"
        case .notUnspent(let coin): "coin \(coin.short) is not an unspent coin of the proof"
        case .coinOwner(let coin, let owner): "coin \(coin.short) is owned by \(owner)"
        case .coinAsset(let coin, let asset, let paid):
            "coin \(coin.short) is asset \(asset), not \(paid)"
        case .sum(let credited, let stated, let asset):
            "coins to the payee sum to \(wording.amount(credited, of: asset)), not \(wording.amount(stated, of: asset))"
        case .receiptDigest(let acknowledged, let payment):
            "the receipt acknowledges payment digest \(acknowledged.short), this payment is \(payment.short)"
        }
    }
}
