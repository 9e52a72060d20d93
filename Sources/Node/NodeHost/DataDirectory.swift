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

    /// The names of the node's files in the folder (a backup takes them by these names).
    public enum Names {
        public static let walletKey = "wallet-key.json"
        public static let issuerKey = "issuer-key.json"
        public static let homeWallet = "wallet.sqlite"
        public static let chains = "chains.toml"
        public static let domainWallets = "wallets"
        /// Bluetooth's session key (SessionKeyFile).
        public static let sessionKey = "session-key"
        /// The API's token, where node.toml does not put it elsewhere (NodeConfiguration).
        public static let apiToken = "api-token"
        /// `tender node`'s settings, unless `--config` names another file.
        public static let settings = "node.toml"
        /// Held by the running node (NodeLock).
        public static let nodeLock = "node.lock"
        /// Held by whatever settles the wallets: the node's sync loop, or a sync run by hand.
        public static let syncLock = "sync.lock"
        /// What the issuer signed (IssuanceLedger).
        public static let issued = "issued.sqlite"
        /// The Cashu wallet: mints, keysets, proofs (Docs/CASHU.md).
        public static let cashu = "cashu.sqlite"
    }

    public var walletKey: String { path + "/" + Names.walletKey }
    public var issuerKey: String { path + "/" + Names.issuerKey }
    /// The home wallet: the domain `tender init` chose.
    public var database: String { path + "/" + Names.homeWallet }
    /// The chain registry (chains.toml).
    public var chains: String { path + "/" + Names.chains }
    /// The Cashu wallet's database.
    public var cashu: String { path + "/" + Names.cashu }
    /// Wallets for the other domains the node holds coins in, one database each.
    public var domainWallets: String { path + "/" + Names.domainWallets }

    /// The wallet database for coins of `domain` when it is not the home wallet's.
    public func database(for domain: Domain) -> String {
        domainWallets + "/\(domain.chainID)-\(domain.vault.checksummed).sqlite"
    }

    /// Every wallet database's name in the folder: the home wallet (listed whether or not it
    /// exists), then the other domains' (`wallets/NAME.sqlite`) in name order.
    public func walletNames() -> [String] {
        let others = (try? FileManager.default.contentsOfDirectory(atPath: domainWallets)) ?? []
        return [Names.homeWallet]
            + others.sorted().filter { $0.hasSuffix(".sqlite") }.map {
                Names.domainWallets + "/" + $0
            }
    }

    /// Every wallet database's path: `database`, then `domainWalletPaths()`.
    public func walletPaths() -> [String] { walletNames().map { path + "/" + $0 } }

    /// The files of the wallets for domains other than home, in name order.
    public func domainWalletPaths() -> [String] { Array(walletPaths().dropFirst()) }

    /// The refusal of a command that needs a wallet where there is none.
    public var noWallet: NodeError {
        NodeError(.missing("no wallet at \(path)"), resolvedBy: .initialise)
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
