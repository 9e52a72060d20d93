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

    public var description: String { description(in: PlainWording()) }

    public func description(in wording: some ErrorWording) -> String {
        "\(wording.amount(amount, of: asset)) of asset \(asset.checksummed) per \(period) s to \(payee?.checksummed ?? "any payee")"
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

/// Why the limits refuse a payment the node would make on its own.
public enum SpendingRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The node has no limits: it pays nothing on its own.
    case noLimits
    /// No limit covers paying `payee` in `asset`.
    case uncovered(payee: Address, asset: Address)
    /// Paying `amount` would take the limit of `use` past its amount.
    case exceeded(amount: Amount, use: SpendingLimitUse)

    public var description: String { description(in: PlainWording()) }

    public func description(in wording: some ErrorWording) -> String {
        switch self {
        case .noLimits:
            "this node pays nothing on its own: it has no spending limits (\(wording.step(.setSpendingLimits)))"
        case .uncovered(let payee, let asset):
            "no spending limit covers paying \(payee.checksummed) in asset \(asset.checksummed); the node pays on its own only under a limit"
        case .exceeded(let amount, let use):
            "paying \(wording.amount(amount, of: use.limit.asset)) would exceed the limit of \(use.limit.description(in: wording)) (\(wording.amount(use.used, of: use.limit.asset)) used, \(wording.amount(use.remaining, of: use.limit.asset)) left)"
        }
    }
}
