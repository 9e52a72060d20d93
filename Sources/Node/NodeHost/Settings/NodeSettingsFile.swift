/// node.toml as written: every section and key optional, their types checked as they are
/// read, a key no section names refused (`SettingsTOML`). `NodeConfiguration` makes the
/// settings of it, checking each value's range.
struct NodeSettingsFile: SettingsLayout {
    struct API: Decodable {
        var listen: SettingString?
        var tokenFile: SettingString?
        var hosts: [SettingString]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case listen
            case tokenFile = "token-file"
            case hosts
        }
    }

    struct Sync: Decodable {
        var enabled: SettingBool?
        var interval: SettingDuration?
        var replaceAfter: SettingDuration?
        var redeem: SettingString?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case enabled, interval
            case replaceAfter = "replace-after"
            case redeem
        }
    }

    struct Payee: Decodable {
        var bluetooth: SettingString?
        var name: SettingString?
        var camera: SettingString?
        var cashu: SettingString?

        enum CodingKeys: String, CodingKey, CaseIterable { case bluetooth, name, camera, cashu }
    }

    struct Log: Decodable {
        var level: SettingString?
        var format: SettingString?

        enum CodingKeys: String, CodingKey, CaseIterable { case level, format }
    }

    /// `[[limits]]`: what the node may pay on its own.
    struct Limit: Decodable {
        /// An address, or "any".
        var payee: SettingDigits
        /// The native coin (the zero address) when absent.
        var asset: SettingDigits?
        /// Base units: a string, or an integer.
        var amount: SettingDigits
        /// A rolling window: 90s, 30m, 24h, 7d, 1w, or seconds.
        var period: SettingDigits

        enum CodingKeys: String, CodingKey, CaseIterable { case payee, asset, amount, period }
    }

    var api: API?
    var sync: Sync?
    var payee: Payee?
    var log: Log?
    var limits: [Limit]?

    enum CodingKeys: String, CodingKey, CaseIterable { case api, sync, payee, log, limits }

    /// Each key a section takes, in the order the messages list them.
    static let sections: [String: [String]] = [
        "api": API.CodingKeys.allCases.map(\.rawValue),
        "sync": Sync.CodingKeys.allCases.map(\.rawValue),
        "payee": Payee.CodingKeys.allCases.map(\.rawValue),
        "log": Log.CodingKeys.allCases.map(\.rawValue),
    ]

    /// Every key the environment may override (`TENDER_<SECTION>_<KEY>`), with its kind.
    static var overridable: [(section: String, key: String, kind: SettingsTOML.Kind)] {
        // A list (hosts) has no one-word form in the environment.
        API.CodingKeys.allCases.filter { $0 != .hosts }.map { ("api", $0.rawValue, .string) }
            + Sync.CodingKeys.allCases.map { key in
                (
                    "sync", key.rawValue,
                    key == .enabled ? .bool : key == .redeem ? .string : .duration
                )
            }
            + Payee.CodingKeys.allCases.map { ("payee", $0.rawValue, .string) }
            + Log.CodingKeys.allCases.map { ("log", $0.rawValue, .string) }
    }

    static func place(_ path: [SettingsTOML.Step]) -> String {
        var text = ""
        for step in path {
            switch step {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    static func unknown(_ key: String, at path: [SettingsTOML.Step]) -> String {
        if path.isEmpty {
            let known = CodingKeys.allCases.map(\.rawValue).sorted().joined(separator: ", ")
            return "unknown section [\(key)] (known: \(known))"
        }
        if path.count == 1, case .key(let section) = path[0] {
            let known = sections[section, default: []].joined(separator: ", ")
            return "unknown key \(section).\(key) (known in [\(section)]: \(known))"
        }
        let known = Limit.CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
        return "\(place(path)): unknown key \(key) (known: \(known))"
    }

    static func missing(_ key: String, at path: [SettingsTOML.Step]) -> String {
        let hint =
            switch key {
            case "payee": " (an address, or \"any\")"
            case "amount": " (base units)"
            case "period": " (24h, 7d, …)"
            default: ""
            }
        return "\(place(path)) needs \(key)\(hint)"
    }

    static func notATable(at path: [SettingsTOML.Step]) -> String? {
        guard path.first == .key(CodingKeys.limits.rawValue) else { return nil }
        if path.count == 2, case .index(let index) = path[1] {
            return "limits[\(index)] must be a table ([[limits]])"
        }
        return path.count == 1 ? "limits must be tables, each [[limits]]" : nil
    }
}
