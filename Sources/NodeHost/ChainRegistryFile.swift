import Foundation
import NodeKit
import Settlement
import TOMLKit
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
///
/// A missing file is an empty registry. Written whole and atomically.
public enum ChainRegistryFile {
    struct Contents: Codable {
        var chain: [Entry]?
    }

    struct Entry: Codable {
        var id: Int64
        var vault: String
        var rpc: [String]
        var confirmations: Int64?
        var rateLimit: Double?
        var nativeSymbol: String?
        var nativeDecimals: Int64?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, vault, rpc, confirmations
            case rateLimit = "rate-limit"
            case nativeSymbol = "native-symbol"
            case nativeDecimals = "native-decimals"
        }
    }

    public static let maxBytes = 1 << 20

    public static func load(_ path: String) throws(NodeError) -> ChainRegistry {
        guard FileManager.default.fileExists(atPath: path) else { return try ChainRegistry() }
        let text = String(decoding: try FileIO.read(path, limit: maxBytes), as: UTF8.self)
        return try parse(text, name: path)
    }

    public static func parse(_ text: String, name: String) throws(NodeError) -> ChainRegistry {
        let contents: Contents
        // Strict: a key the registry does not know is a typo (`confirmation = 12` would leave
        // 1 in place without a word), refused naming it, as node.toml's are.
        do {
            contents = try TOMLDecoder(strictDecoding: true).decode(Contents.self, from: text)
        } catch {
            throw NodeError(.usage("\(name) is not a chain registry: \(describe(error))"))
        }
        var entries: [ChainEntry] = []
        for (index, entry) in (contents.chain ?? []).enumerated() {
            let place = "\(name), chain \(index + 1)"
            guard entry.id > 0 else { throw NodeError(.usage("\(place): id must be positive")) }
            let vault: Address
            do { vault = try Address(entry.vault) } catch {
                throw NodeError(.usage("\(place): vault: \(error)"))
            }
            guard (entry.confirmations ?? 1) >= 1 else {
                throw NodeError(.usage("\(place): confirmations must be at least 1"))
            }
            let nativeCoin: Denomination?
            do {
                nativeCoin = try ChainEntry.configuredCoin(
                    symbol: entry.nativeSymbol,
                    decimals: entry.nativeDecimals.map(Int.init(clamping:)))
            } catch { throw NodeError(.usage("\(place): native-symbol/native-decimals: \(error)")) }
            entries.append(
                try named(name) { () throws(NodeError) in
                    try ChainEntry(
                        domain: Domain(chainID: UInt64(entry.id), vault: vault),
                        endpoints: entry.rpc,
                        confirmations: entry.confirmations.map(UInt64.init)
                            ?? ChainEntry.defaultConfirmations,
                        rateLimit: entry.rateLimit, nativeCoin: nativeCoin)
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
        try FileIO.writeAtomically(Array(render(registry).utf8), to: path, replacing: true)
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? TOMLParseError {
            return "line \(error.source.begin.line): \(error.description)"
        }
        if let error = error as? UnexpectedKeysError,
            let first = error.keys.min(by: { $0.key < $1.key })
        {
            // The path ends with the key: [key] at the top, [chain, #n, key] in a chain.
            guard first.value.count == 3, let index = first.value[1].intValue else {
                return "unknown key \(first.key) (a registry holds [[chain]] tables)"
            }
            let known = Entry.CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")
            return "chain \(index + 1): unknown key \(first.key) (known: \(known))"
        }
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                return "\(path(context.codingPath)) \(key.stringValue) is missing"
            case .typeMismatch(_, let context), .valueNotFound(_, let context),
                .dataCorrupted(let context):
                return "\(path(context.codingPath)): \(context.debugDescription)"
            @unknown default: break
            }
        }
        return "\(error)"
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "#\($0 + 1)" } ?? $0.stringValue }.joined(separator: ".")
    }
}
