import Foundation
import NodeKit
import Settlement
import Tender

/// The chain registry as a TOML file in the data directory (`chains.toml`), one `[[chain]]`
/// table per vault:
///
///     [[chain]]
///     id = 31337
///     vault = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
///     rpc = ["http://127.0.0.1:8545"]
///     confirmations = 2
///     rate-limit = 20.0
///     native-symbol = "ETH"      # the chain's own coin, as amounts show it
///     native-decimals = 18
///     dust = "wait"              # or "redeem": coins worth less than their gas go anyway
///
/// A missing file is an empty registry. Written whole and atomically.
public enum ChainRegistryFile {
    /// chains.toml as written, read by `SettingsTOML` (a key no `[[chain]]` names refused).
    struct Contents: SettingsLayout {
        var chain: [Entry]?

        enum CodingKeys: String, CodingKey { case chain }

        static func place(_ path: [SettingsTOML.Step]) -> String {
            guard path.count >= 2, case .index(let index) = path[1] else {
                return path.map { if case .key(let key) = $0 { key } else { "" } }.joined()
            }
            let chain = "chain \(index + 1)"
            guard path.count >= 3, case .key(let key) = path[2] else { return chain }
            return "\(chain): \(key)"
        }

        static func unknown(_ key: String, at path: [SettingsTOML.Step]) -> String {
            guard path.count == 2 else {
                return "unknown key \(key) (a registry holds [[chain]] tables)"
            }
            let known = Entry.CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
            return "\(place(path)): unknown key \(key) (known: \(known))"
        }

        static func missing(_ key: String, at path: [SettingsTOML.Step]) -> String {
            "\(place(path)): \(key) is missing"
        }

        static func notATable(at path: [SettingsTOML.Step]) -> String? {
            switch path.count {
            case 1: "chain must be tables, each [[chain]]"
            case 2: "\(place(path)) must be a table ([[chain]])"
            default: "\(place(path)) must be a list of endpoints ([\"http://…\"])"
            }
        }
    }

    struct Entry: Decodable {
        var id: SettingInteger
        var vault: SettingString
        var rpc: [SettingString]
        var confirmations: SettingInteger?
        var rateLimit: SettingNumber?
        var nativeSymbol: SettingString?
        var nativeDecimals: SettingInteger?
        var dust: SettingString?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, vault, rpc, confirmations
            case rateLimit = "rate-limit"
            case nativeSymbol = "native-symbol"
            case nativeDecimals = "native-decimals"
            case dust
        }
    }

    public static let maxBytes = 1 << 20

    public static func load(_ path: String) throws(NodeError) -> ChainRegistry {
        guard FileManager.default.fileExists(atPath: path) else { return try ChainRegistry() }
        let text = String(
            decoding: try FileIO.read(path, limit: maxBytes, holding: .setting), as: UTF8.self)
        return try parse(text, name: path)
    }

    public static func parse(_ text: String, name: String) throws(NodeError) -> ChainRegistry {
        // Strict: a key the registry does not know is a typo (`confirmation = 12` would leave
        // 1 in place without a word), refused naming it, as node.toml's are.
        let table = try SettingsTOML.table(text, name: name)
        let contents = try SettingsTOML.decode(Contents.self, from: table, name: name)
        var entries: [ChainEntry] = []
        for (index, entry) in (contents.chain ?? []).enumerated() {
            let place = "\(name), chain \(index + 1)"
            guard entry.id.value > 0 else {
                throw NodeError(.usage("\(place): id must be positive"))
            }
            let vault: Address
            do { vault = try Address(entry.vault.value) } catch {
                throw NodeError(.usage("\(place): vault: \(error)"))
            }
            guard (entry.confirmations?.value ?? 1) >= 1 else {
                throw NodeError(.usage("\(place): confirmations must be at least 1"))
            }
            let nativeCoin: Denomination?
            do {
                nativeCoin = try ChainEntry.configuredCoin(
                    symbol: entry.nativeSymbol?.value,
                    decimals: entry.nativeDecimals.map { Int(clamping: $0.value) })
            } catch { throw NodeError(.usage("\(place): native-symbol/native-decimals: \(error)")) }
            var dust = DustPolicy.wait
            if let text = entry.dust?.value {
                guard let policy = DustPolicy(rawValue: text) else {
                    throw NodeError(
                        .usage("\(place): dust must be \"wait\" or \"redeem\", got \"\(text)\""))
                }
                dust = policy
            }
            entries.append(
                try named(name) { () throws(NodeError) in
                    try ChainEntry(
                        domain: Domain(chainID: UInt64(entry.id.value), vault: vault),
                        endpoints: entry.rpc.map(\.value),
                        confirmations: entry.confirmations.map { UInt64($0.value) }
                            ?? ChainEntry.defaultConfirmations,
                        rateLimit: entry.rateLimit?.value, nativeCoin: nativeCoin, dust: dust)
                })
        }
        return try named(name) { () throws(NodeError) in try ChainRegistry(entries) }
    }

    /// The registry's own errors, with the file named.
    private static func named<T>(
        _ name: String, _ body: () throws(NodeError) -> T
    ) throws(NodeError) -> T {
        do { return try body() } catch { throw NodeError(.usage("\(name): \(error.description)")) }
    }

    public static func render(_ registry: ChainRegistry) -> String {
        var text = "# The chains this node settles on (`tender chain add` / `remove` edit it).\n"
        for entry in registry.entries {
            text += "\n[[chain]]\nid = \(entry.domain.chainID)\n"
            text += "vault = \(quoted(entry.domain.vault.checksummed))\n"
            text += "rpc = [\(entry.endpoints.map(quoted).joined(separator: ", "))]\n"
            text += "confirmations = \(entry.confirmations)\n"
            if let rate = entry.rateLimit { text += "rate-limit = \(rate)\n" }
            if let coin = entry.nativeCoin, let symbol = coin.symbol {
                text += "native-symbol = \(quoted(symbol))\nnative-decimals = \(coin.decimals)\n"
            }
            if entry.dust != .wait { text += "dust = \(quoted(entry.dust.rawValue))\n" }
        }
        return text
    }

    /// A TOML basic string.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    public static func save(_ registry: ChainRegistry, to path: String) throws(NodeError) {
        try FileIO.writeAtomically(
            Array(render(registry).utf8), to: path, mode: 0o600, replacing: true)
    }
}
