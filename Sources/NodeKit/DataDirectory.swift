import Foundation

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
    public var database: String { path + "/wallet.sqlite" }

    /// Creates the directory with mode 0700 (keys and payment history live here).
    public func create() throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }

    public var exists: Bool { FileManager.default.fileExists(atPath: database) }
}
