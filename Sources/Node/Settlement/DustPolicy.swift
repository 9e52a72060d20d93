/// What the sync engine does with coins worth less than the gas their redeem would add
/// (`dust` in chains.toml): `wait` (the default) keeps them until gas is cheaper or other
/// coins share their proof, and says so; `redeem` sends them whatever they cost (test chains,
/// whose amounts are a few base units).
public enum DustPolicy: String, Sendable, CaseIterable {
    case wait
    case redeem
}
