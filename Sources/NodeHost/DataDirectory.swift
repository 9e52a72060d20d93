import Foundation
import NodeKit
import Posix
import Tender

/// Where a node keeps its files. Resolution: an explicit path, else `$TENDER_HOME`, else
/// `$XDG_DATA_HOME/tender`, else `~/.local/share/tender`.
public struct DataDirectory: Sendable {
    public let path: String

    public init(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        if let explicit, !explicit.isEmpty {
            path = explicit
        } else if let home = environment["TENDER_HOME"], !home.isEmpty {
            path = home
        } else if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            path = xdg + "/tender"
        } else {
            path = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/tender"
        }
    }

    public var walletKey: String { path + "/wallet-key.json" }
    public var issuerKey: String { path + "/issuer-key.json" }
    /// The home wallet: the domain `tender init` chose.
    public var database: String { path + "/wallet.sqlite" }
    /// The chain registry (chains.toml).
    public var chains: String { path + "/chains.toml" }
    /// Wallets for the other domains the node holds coins in, one database each.
    public var domainWallets: String { path + "/wallets" }

    /// The wallet database for coins of `domain` when it is not the home wallet's.
    public func database(for domain: Domain) -> String {
        domainWallets + "/\(domain.chainID)-\(domain.vault.checksummed).sqlite"
    }

    /// Creates the folder (and its parents) with mode 0700: keys and payment history live here.
    public func create() throws(NodeError) {
        if let kind = try? DurableFile.fileKind(path) {
            guard kind == S_IFDIR else {
                throw NodeError(
                    .usage("\(path) is a file, not a folder: give a folder for the wallet"))
            }
            guard access(path, W_OK | X_OK) == 0 else {
                throw NodeError(.io("cannot write in the folder \(path): permission denied"))
            }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            let reason =
                (error as NSError).localizedFailureReason ?? "\(error.localizedDescription)"
            throw NodeError(.io("cannot create the folder \(path): \(reason)"))
        }
    }

    /// Whether a wallet was created here.
    public var exists: Bool { FileManager.default.fileExists(atPath: database) }
}
