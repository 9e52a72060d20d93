import Tender

/// The payee nearby asks for another amount than the payer would pay: nothing was paid.
public struct AmountMismatch: Error, Sendable {
    public let asked: Amount
    public let offered: Amount
    public let asset: Address
}
