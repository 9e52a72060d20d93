/// A node's wallets, all under its one key: the home wallet (the domain `tender init` chose,
/// which issues the node's requests and takes its payments) and one per other domain the node
/// was paid in (Docs/PROTOCOL.md §11, "Chains").
public struct NodeWallets: Sendable {
    public let home: Wallet
    /// The other domains' wallets, in the order their files are listed.
    public let others: [Wallet]

    public init(home: Wallet, others: [Wallet] = []) {
        self.home = home
        self.others = others
    }

    /// Every wallet, home first.
    public var all: [Wallet] { [home] + others }
}
