/// A cap on what the node pays on its own, with no person confirming (a kiosk paying a
/// supplier, requests paid through the API): at most `amount` of `asset` to `payee` (every
/// payee when nil) in any window of `period` seconds. What a payment counts against its limits
/// is recorded in the transaction that records the payment and dropped in the one that cancels
/// it, so two payments at once can never both fit under the last of a limit.
public struct SpendingLimit: Sendable, Equatable, CustomStringConvertible {
    public let payee: Address?
    public let asset: Address
    public let amount: Amount
    public let period: UInt64

    public init(payee: Address?, asset: Address, amount: Amount, period: UInt64) {
        self.payee = payee
        self.asset = asset
        self.amount = amount
        self.period = period
    }

    public func covers(payee other: Address, asset otherAsset: Address) -> Bool {
        asset == otherAsset && (payee == nil || payee == other)
    }

    public var description: String {
        "\(amount) of asset \(asset.checksummed) per \(period) s to \(payee?.checksummed ?? "any payee")"
    }
}

/// A limit and what counts against it now.
public struct SpendingLimitUse: Sendable, Equatable {
    public let limit: SpendingLimit
    public let used: Amount

    public init(limit: SpendingLimit, used: Amount) {
        self.limit = limit
        self.used = used
    }

    public var remaining: Amount { used >= limit.amount ? 0 : limit.amount - used }
}
