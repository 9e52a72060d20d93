import Foundation
import NodeKit
import Synchronization

/// The wallets a long-running node keeps open: the home wallet, and one per other domain,
/// opened when its file appears (a payment in a new domain made it, in this process or in a
/// `tender receive` beside it). Reading the list is a directory listing; opening is once.
public final class OpenWallets: Sendable {
    private let host: NodeHost
    private let opened = Mutex<[String: Wallet]>([:])

    public init(host: NodeHost) { self.host = host }

    /// The home wallet first, then the others by file name.
    public func current() throws(NodeError) -> [Wallet] {
        let folder = host.directory.domainWallets
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".sqlite") }.sorted()
        let paths = [host.directory.database] + names.map { folder + "/" + $0 }
        let known = opened.withLock { $0 }
        if paths.allSatisfy({ known[$0] != nil }) { return paths.map { known[$0]! } }
        // Something new: open the node's wallets again (the checks of `openWallets`), keep
        // the ones already open.
        let fresh = try host.openWallets()
        return opened.withLock { opened in
            for wallet in fresh {
                let path =
                    wallet.domain == fresh[0].domain
                    ? host.directory.database : host.directory.database(for: wallet.domain)
                if opened[path] == nil { opened[path] = wallet }
            }
            return paths.compactMap { opened[$0] }
        }
    }
}
