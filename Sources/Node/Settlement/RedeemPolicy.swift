/// Which of the coins a wallet holds a sync redeems (Docs/PROTOCOL.md §11, "Who redeems"). A
/// payee, a stall, redeems every coin it takes (`all`: what `tender node` does unless told
/// otherwise); a payer, a customer, keeps the coins it can still pay with and redeems only
/// those it cannot (`unpayable`: what `tender sync` does unless told otherwise): coins that
/// expire within `nearExpiry` (or the least lifetime a payee takes, when longer) and coins
/// passed on as many times as a coin may be offline. `none` only reads the vault (collateral,
/// what it consumed, fraud records) and follows the redeems already sent.
public enum RedeemPolicy: String, Sendable, CaseIterable {
    case all
    case unpayable
    case none

    /// How close to its expiry a payer's coin is redeemed: a week, time for a customer who
    /// is online now and then to be online once.
    public static let nearExpiry: UInt64 = 7 * 86_400
}
