import Foundation
import NodeKit
import Synchronization

/// The wallets a long-running node keeps open: the home wallet, and one per other domain,
/// opened when its file appears (a payment in a new domain made it, in this process or in a
/// `tender receive` beside it). Reading the list is a directory listing; each wallet is
/// opened once.
public final class OpenWallets: Sendable {
    private let host: NodeHost
    private let opened = Mutex<(home: Wallet?, domains: [String: Wallet])>((nil, [:]))

    public init(host: NodeHost) { self.host = host }

    /// The home wallet, and the others by file name.
    public func current() throws(NodeError) -> NodeWallets {
        let paths = host.directory.domainWalletPaths()
        let known = opened.withLock { $0 }
        let home: Wallet
        if let kept = known.home { home = kept } else { home = try host.openWallet() }
        var domains = known.domains
        for path in paths where domains[path] == nil {
            domains[path] = try host.openDomainWallet(at: path, home: home)
        }
        opened.withLock { opened in
            if opened.home == nil { opened.home = home }
            opened.domains.merge(domains) { kept, _ in kept }
        }
        return NodeWallets(home: home, others: paths.map { domains[$0]! })
    }
}
