import Foundation
import NodeKit
import Settlement
import Tender

/// `tender node`'s settings: one TOML file (`node.toml` in the data directory, or
/// `--config`), every key optional, each overridable by `TENDER_<SECTION>_<KEY>` in the
/// environment (`TENDER_SYNC_INTERVAL=10`; dashes become underscores). Unknown sections and
/// keys are errors, so a typo never silently leaves a default in place. Docs/OPERATIONS.md
/// lists every key.
public struct NodeConfiguration: Sendable, Equatable {
    /// Where the API listens: `HOST:PORT` (loopback by default) or `unix:/path`.
    public var listen = ListenAddress.tcp(host: "127.0.0.1", port: 8737)
    /// The bearer token's file, relative to the data directory unless absolute.
    public var tokenFile = DataDirectory.Names.apiToken
    /// Host names the API answers to besides IP addresses, localhost and the machine's own
    /// name (`[api] hosts`): what a browser on the network types to reach the POS page.
    public var hosts: [String] = []
    public var syncEnabled = true
    /// Seconds between sync passes.
    public var syncInterval: Double = 30
    /// Seconds a transaction may wait for a block before it is replaced.
    public var replaceAfter: UInt64 = 180
    /// Which held coins the sync loop redeems: every one by default (a stall's node redeems
    /// what it takes; Docs/PROTOCOL.md §11, "Who redeems").
    public var redeem = RedeemPolicy.all
    /// Bluetooth payee service: on (fail without an adapter), off, or auto (when present).
    public var bluetooth = Switch.auto
    /// The name the Bluetooth payee advertises.
    public var payeeName = "Tender"
    /// The camera the payee watches for payment codes (`/dev/video0`); none by default.
    public var camera: String?
    /// Which Cashu tokens the payees (camera, API) take offline: any from a mint the wallet
    /// holds the keys of, only those locked to the node's key, or none (Docs/CASHU.md).
    public var cashu = CashuAcceptance.on
    /// How much the log says.
    public var logLevel = LogLevel.info
    /// One line per event, or one JSON object per line.
    public var logFormat = LogFormat.text
    /// What the node may pay on its own (`[[limits]]`): none, so by default it pays nothing
    /// without a person.
    public var limits: [SpendingLimit] = []

    public enum Switch: String, Sendable, CaseIterable { case auto, on, off }

    public enum CashuAcceptance: String, Sendable, CaseIterable { case on, locked, off }

    /// swift-log's levels, by their names.
    public enum LogLevel: String, Sendable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
    }

    public enum LogFormat: String, Sendable, CaseIterable { case text, json }

    public init() {}

    /// Reads `path` (a missing file: the defaults), then the environment's overrides.
    public static func load(
        _ path: String, mustExist: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NodeError) -> NodeConfiguration {
        var text = ""
        if FileManager.default.fileExists(atPath: path) {
            text = String(
                decoding: try FileIO.read(path, limit: 1 << 20, holding: .setting), as: UTF8.self)
        } else if mustExist {
            throw NodeError(.missing("no configuration file \(path)"))
        }
        return try parse(text, name: path, environment: environment)
    }

    /// The settings of `text` (named `name` in messages), each key overridden by its
    /// `TENDER_<SECTION>_<KEY>` in `environment`: read the way chains.toml is
    /// (`SettingsTOML`), then each value's range checked.
    public static func parse(
        _ text: String, name: String, environment: [String: String] = [:]
    ) throws(NodeError) -> NodeConfiguration {
        let table = try SettingsTOML.table(text, name: name)
        // A mistyped variable is refused as a mistyped key in the file is: it would leave a
        // default in place without a word.
        let known = Set(
            NodeSettingsFile.overridable.map {
                "TENDER_\($0.section)_\($0.key)".uppercased().replacingOccurrences(
                    of: "-", with: "_")
            })
        let sections = NodeSettingsFile.CodingKeys.allCases.map {
            "TENDER_\($0.rawValue.uppercased())_"
        }
        for variable in environment.keys.sorted()
        where sections.contains(where: variable.hasPrefix) && !known.contains(variable) {
            // Lists (hosts, limits) are settings with no one-word form: said as such.
            let listed =
                ["TENDER_API_HOSTS"].contains(variable) || variable.hasPrefix("TENDER_LIMITS_")
            throw NodeError(
                .usage(
                    listed
                        ? "\(variable): a list has no environment form; set it in the file"
                        : "unknown setting \(variable) in the environment (known: \(known.sorted().joined(separator: ", ")))"
                ))
        }
        for (section, key, kind) in NodeSettingsFile.overridable {
            let variable = "TENDER_\(section)_\(key)".uppercased().replacingOccurrences(
                of: "-", with: "_")
            guard let value = environment[variable] else { continue }
            try SettingsTOML.override(
                table, section: section, key: key, kind: kind, text: value, variable: variable)
        }
        let file = try SettingsTOML.decode(NodeSettingsFile.self, from: table, name: name)
        var configuration = NodeConfiguration()
        try configuration.apply(file, name: name)
        return configuration
    }

    private mutating func apply(_ file: NodeSettingsFile, name: String) throws(NodeError) {
        func mistake(_ place: String, _ text: String) -> NodeError {
            NodeError(.usage("\(name): \(place) \(text)"))
        }
        if let listen = file.api?.listen?.value {
            do { self.listen = try ListenAddress(listen) } catch {
                throw NodeError(.usage("\(name): api.\(error.description)"))
            }
        }
        if let hosts = file.api?.hosts {
            for (index, host) in hosts.enumerated() {
                let name = host.value
                guard !name.isEmpty, name.count <= 253,
                    name.allSatisfy({
                        $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".")
                    })
                else {
                    throw mistake(
                        "api.hosts[\(index)]",
                        "must be a host name (letters, digits, '-', '.'), got '\(name)'")
                }
            }
            self.hosts = hosts.map(\.value)
        }
        if let tokenFile = file.api?.tokenFile?.value {
            guard !tokenFile.isEmpty else { throw mistake("api.token-file", "is empty") }
            self.tokenFile = tokenFile
        }
        if let enabled = file.sync?.enabled?.value { syncEnabled = enabled }
        if let interval = file.sync?.interval?.value.seconds {
            guard interval >= 0.1, interval <= 86_400 else {
                throw mistake("sync.interval", "must be 0.1 s … 1 d (0.1…86400 seconds)")
            }
            syncInterval = interval
        }
        if let seconds = file.sync?.replaceAfter?.value.seconds {
            guard seconds >= 0, seconds <= 86_400, seconds == seconds.rounded() else {
                throw mistake("sync.replace-after", "must be whole seconds, 0 … 1 d (0…86400)")
            }
            replaceAfter = UInt64(seconds)
        }
        if let text = file.sync?.redeem?.value {
            guard let policy = RedeemPolicy(rawValue: text) else {
                throw mistake("sync.redeem", "must be all, unpayable or none, got '\(text)'")
            }
            redeem = policy
        }
        if let text = file.payee?.bluetooth?.value {
            guard let value = Switch(rawValue: text) else {
                throw mistake("payee.bluetooth", "must be auto, on or off, got '\(text)'")
            }
            bluetooth = value
        }
        if let payeeName = file.payee?.name?.value {
            guard (1...29).contains(payeeName.utf8.count) else {
                throw mistake("payee.name", "must be 1…29 bytes")
            }
            self.payeeName = payeeName
        }
        if let path = file.payee?.camera?.value {
            // Empty: no camera (an environment override can switch the file's one off).
            guard path.isEmpty || (path.hasPrefix("/") && !path.contains("\0")) else {
                throw mistake(
                    "payee.camera", "must be a device path such as /dev/video0, got '\(path)'")
            }
            camera = path.isEmpty ? nil : path
        }
        if let text = file.payee?.cashu?.value {
            guard let value = CashuAcceptance(rawValue: text) else {
                throw mistake("payee.cashu", "must be on, locked or off, got '\(text)'")
            }
            cashu = value
        }
        if let text = file.log?.format?.value {
            guard let format = LogFormat(rawValue: text) else {
                throw mistake("log.format", "must be text or json, got '\(text)'")
            }
            logFormat = format
        }
        if let text = file.log?.level?.value {
            guard let level = LogLevel(rawValue: text) else {
                let levels = LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
                throw mistake("log.level", "must be one of \(levels), got '\(text)'")
            }
            logLevel = level
        }
        limits = try (file.limits ?? []).enumerated().map { index, entry throws(NodeError) in
            try SpendingLimitSettings.limit(entry, place: "\(name): limits[\(index)]")
        }
    }
}

/// Where the API listens.
public enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    /// Whether only this machine can reach it: a Unix socket, or a loopback address or name.
    public var isLocal: Bool {
        guard case .tcp(let host, _) = self else { return true }
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `HOST:PORT` (`[::1]:8737` for IPv6) or `unix:/absolute/path`.
    public init(_ text: String) throws(NodeError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard path.hasPrefix("/"), path.utf8.count < 108 else {
                throw NodeError(
                    .usage(
                        "listen: unix:PATH needs an absolute path under 108 bytes, got '\(text)'"))
            }
            self = .unix(path: path)
            return
        }
        guard let colon = text.lastIndex(of: ":"),
            let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port)
        else {
            throw NodeError(
                .usage("listen: expected HOST:PORT (port 1…65535) or unix:/PATH, got '\(text)'"))
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else {
            throw NodeError(.usage("listen: no host in '\(text)'"))
        }
        self = .tcp(host: host, port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        }
    }
}
