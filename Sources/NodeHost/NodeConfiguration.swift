import Foundation
import NodeKit
import TOMLKit
import Tender
import WalletStore

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
    public var syncEnabled = true
    /// Seconds between sync passes.
    public var syncInterval: Double = 30
    /// Seconds a transaction may wait for a block before it is replaced.
    public var replaceAfter: UInt64 = 180
    /// Bluetooth payee service: on (fail without an adapter), off, or auto (when present).
    public var bluetooth = Switch.auto
    /// The name the Bluetooth payee advertises.
    public var payeeName = "Tender"
    /// The camera the payee watches for payment codes (`/dev/video0`); none by default.
    public var camera: String?
    /// swift-log's level names: trace, debug, info, notice, warning, error, critical.
    public var logLevel = "info"
    /// `text` (one line per event) or `json` (one object per line).
    public var logFormat = "text"
    /// What the node may pay on its own (`[[limits]]`): none, so by default it pays nothing
    /// without a person.
    public var limits: [SpendingLimit] = []

    public enum Switch: String, Sendable, CaseIterable { case auto, on, off }

    public init() {}

    /// The keys each section takes, for the unknown-key check and the documentation.
    public static let keys: [String: [String]] = [
        "api": ["listen", "token-file"],
        "sync": ["enabled", "interval", "replace-after"],
        "payee": ["bluetooth", "name", "camera"],
        "log": ["level", "format"],
    ]

    public static let logLevels = [
        "trace", "debug", "info", "notice", "warning", "error", "critical",
    ]

    /// Reads `path` (a missing file: the defaults), then the environment's overrides.
    public static func load(
        _ path: String, mustExist: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NodeError) -> NodeConfiguration {
        var text = ""
        if FileManager.default.fileExists(atPath: path) {
            text = String(decoding: try FileIO.read(path, limit: 1 << 20), as: UTF8.self)
        } else if mustExist {
            throw NodeError(.missing("no configuration file \(path)"))
        }
        return try parse(text, name: path, environment: environment)
    }

    public static func parse(
        _ text: String, name: String, environment: [String: String] = [:]
    ) throws(NodeError) -> NodeConfiguration {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch {
            throw NodeError(.usage("\(name) is not TOML: \(error)"))
        }
        var values: [String: Setting] = [:]
        var limits: [SpendingLimit] = []
        for section in table.keys {
            if section == "limits" {
                limits = try SpendingLimitSettings.parse(table[section]!, file: name)
                continue
            }
            guard let known = keys[section] else {
                throw NodeError(
                    .usage(
                        "\(name): unknown section [\(section)] (known: \((keys.keys + ["limits"]).sorted().joined(separator: ", ")))"
                    ))
            }
            guard let entries = table[section]?.table else {
                throw NodeError(.usage("\(name): \(section) must be a section ([\(section)])"))
            }
            for key in entries.keys {
                guard known.contains(key) else {
                    throw NodeError(
                        .usage(
                            "\(name): unknown key \(section).\(key) (known in [\(section)]: \(known.joined(separator: ", ")))"
                        ))
                }
                values["\(section).\(key)"] = Setting(entries[key]!)
            }
        }
        for (section, known) in keys {
            for key in known {
                let variable = "TENDER_\(section)_\(key)".uppercased().replacingOccurrences(
                    of: "-", with: "_")
                if let text = environment[variable] {
                    values["\(section).\(key)"] = .text(text, from: variable)
                }
            }
        }
        var configuration = NodeConfiguration()
        try configuration.apply(values, file: name)
        configuration.limits = limits
        return configuration
    }

    /// A value from the file (typed by TOML) or the environment (text, typed here).
    enum Setting {
        case value(any TOMLValueConvertible)
        case text(String, from: String)

        init(_ value: any TOMLValueConvertible) { self = .value(value) }

        func string(_ place: String) throws(NodeError) -> String {
            switch self {
            case .value(let value):
                guard let string = value.string else {
                    throw NodeError(.usage("\(place) must be a string"))
                }
                return string
            case .text(let text, _): return text
            }
        }

        func bool(_ place: String) throws(NodeError) -> Bool {
            switch self {
            case .value(let value):
                guard let bool = value.bool else {
                    throw NodeError(.usage("\(place) must be true or false"))
                }
                return bool
            case .text(let text, let variable):
                switch text.lowercased() {
                case "true", "1", "yes", "on": return true
                case "false", "0", "no", "off": return false
                default: throw NodeError(.usage("\(variable) must be true or false, got '\(text)'"))
                }
            }
        }

        func number(_ place: String) throws(NodeError) -> Double {
            switch self {
            case .value(let value):
                if let int = value.int { return Double(int) }
                guard let double = value.double else {
                    throw NodeError(.usage("\(place) must be a number"))
                }
                return double
            case .text(let text, let variable):
                guard let number = Double(text) else {
                    throw NodeError(.usage("\(variable) must be a number, got '\(text)'"))
                }
                return number
            }
        }
    }

    private mutating func apply(_ values: [String: Setting], file: String) throws(NodeError) {
        func place(_ key: String) -> String { "\(file): \(key)" }
        if let listen = values["api.listen"] {
            do { self.listen = try ListenAddress(try listen.string(place("api.listen"))) } catch {
                throw NodeError(.usage("\(file): api.\(error.description)"))
            }
        }
        if let file = values["api.token-file"] {
            tokenFile = try file.string(place("api.token-file"))
            guard !tokenFile.isEmpty else {
                throw NodeError(.usage(place("api.token-file") + " is empty"))
            }
        }
        if let enabled = values["sync.enabled"] {
            syncEnabled = try enabled.bool(place("sync.enabled"))
        }
        if let interval = values["sync.interval"] {
            syncInterval = try interval.number(place("sync.interval"))
            guard syncInterval >= 0.1, syncInterval <= 86_400 else {
                throw NodeError(.usage(place("sync.interval") + " must be 0.1…86400 seconds"))
            }
        }
        if let replace = values["sync.replace-after"] {
            let seconds = try replace.number(place("sync.replace-after"))
            guard seconds >= 0, seconds <= 86_400, seconds == seconds.rounded() else {
                throw NodeError(
                    .usage(place("sync.replace-after") + " must be whole seconds, 0…86400"))
            }
            replaceAfter = UInt64(seconds)
        }
        if let bluetooth = values["payee.bluetooth"] {
            let text = try bluetooth.string(place("payee.bluetooth"))
            guard let value = Switch(rawValue: text) else {
                throw NodeError(
                    .usage(place("payee.bluetooth") + " must be auto, on or off, got '\(text)'"))
            }
            self.bluetooth = value
        }
        if let name = values["payee.name"] {
            payeeName = try name.string(place("payee.name"))
            guard (1...29).contains(payeeName.utf8.count) else {
                throw NodeError(.usage(place("payee.name") + " must be 1…29 bytes"))
            }
        }
        if let camera = values["payee.camera"] {
            let path = try camera.string(place("payee.camera"))
            // Empty: no camera (an environment override can switch the file's one off).
            guard path.isEmpty || (path.hasPrefix("/") && !path.contains("\0")) else {
                throw NodeError(
                    .usage(
                        place("payee.camera")
                            + " must be a device path such as /dev/video0, got '\(path)'"
                    ))
            }
            self.camera = path.isEmpty ? nil : path
        }
        if let format = values["log.format"] {
            logFormat = try format.string(place("log.format"))
            guard ["text", "json"].contains(logFormat) else {
                throw NodeError(
                    .usage(place("log.format") + " must be text or json, got '\(logFormat)'"))
            }
        }
        if let level = values["log.level"] {
            logLevel = try level.string(place("log.level"))
            guard Self.logLevels.contains(logLevel) else {
                throw NodeError(
                    .usage(
                        place("log.level")
                            + " must be one of \(Self.logLevels.joined(separator: ", ")), got '\(logLevel)'"
                    ))
            }
        }
    }
}

/// Where the API listens.
public enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

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
