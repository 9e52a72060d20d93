import ArgumentParser
import Codecs
import Foundation
import NodeKit
import NodeRuntime
import Settlement
import Tender

struct ChainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chain",
        abstract: "The chain registry: where this node settles, and which domains it is paid in.",
        discussion: """
            One entry per vault on a chain: its RPC endpoints (tried in order), the \
            confirmations a redeem needs and a rate limit per endpoint. Kept in chains.toml \
            in the data directory. A node takes payments in its home domain (tender init) and \
            in every domain listed here; `tender sync` settles each.
            """,
        subcommands: [ChainAddCommand.self, ChainListCommand.self, ChainRemoveCommand.self])
}

struct ChainAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a vault on a chain, or change its entry.",
        discussion: """
            The endpoints are asked first, in order: the first that answers must serve the \
            chain, and the chain must hold a Tender vault at the address (its EIP-712 domain \
            is the one notes are signed in); otherwise nothing is written. When none answers \
            the entry is written with a warning (it is checked again by `tender sync`). \
            Changing an entry replaces its endpoints; every other setting not given keeps the \
            value the entry had (a new entry takes the defaults). May come before `tender \
            init`, which then takes the only vault listed as its home.

            Examples:
              tender chain add --id 10 --vault 0x… --rpc https://rpc.io --native-symbol ETH
              tender chain add --id 31337 --vault 0x… --rpc http://127.0.0.1:8545 --no-check
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .customLong("id"), help: "The chain id.") var chainID: UInt64
    @Option(help: "The vault's address.") var vault: String
    @Option(help: "A JSON-RPC endpoint (repeat for fallbacks, tried in order).")
    var rpc: [String]
    @Option(
        help:
            "Blocks on top of a redeem's (its own included) before its coins count (default \(ChainEntry.defaultConfirmations))."
    )
    var confirmations: UInt64?
    @Option(name: .customLong("rate-limit"), help: "Requests per second to each endpoint.")
    var rateLimit: Double?
    @Option(
        name: .customLong("native-symbol"),
        help:
            "The symbol of the chain's own coin, as amounts show it (known chains: ETH, POL, …; a development chain's coin has none until given)."
    )
    var nativeSymbol: String?
    @Option(
        name: .customLong("native-decimals"),
        help: "The decimals of the chain's own coin (with --native-symbol; default 18).")
    var nativeDecimals: Int?
    @Option(
        help:
            "Coins worth less than the gas of redeeming them: wait (for cheaper gas, or coins to share their proofs) or redeem anyway (a test chain's few base units). Default: wait."
    )
    var dust: DustPolicy?
    @Flag(
        name: .customLong("no-check"),
        help: "Do not ask the endpoints (a node set up without network).")
    var noCheck = false

    func run() async throws {
        try await guarded {
            guard chainID > 0, chainID <= UInt64(Int64.max) else {
                throw ValidationError("--id must be a chain id from 1 to 2^63 - 1")
            }
            let domain = Domain(
                chainID: chainID, vault: try parseAddress(vault, option: "--vault"))
            var registry = try global.host.chainRegistry()
            // A change keeps what it does not name: a stall that sets `--dust redeem` must not
            // lose its coin's symbol and start charging in base units.
            let existing = registry.entries.first { $0.domain == domain }
            let nativeCoin: Denomination?
            if nativeSymbol == nil, nativeDecimals == nil, let existing {
                nativeCoin = existing.nativeCoin
            } else if nativeSymbol == nil, nativeDecimals == nil {
                // A new vault on a chain listed already: the chain's coin as named there (a
                // coin is the chain's, not a vault's; removing that entry must not unname it).
                nativeCoin = registry.configuredCoin(chainID: chainID)
            } else {
                do {
                    nativeCoin = try ChainEntry.configuredCoin(
                        symbol: nativeSymbol, decimals: nativeDecimals)
                } catch { throw ValidationError("--native-symbol/--native-decimals: \(error)") }
            }
            let entry = try ChainEntry(
                domain: domain, endpoints: rpc,
                confirmations: confirmations ?? existing?.confirmations
                    ?? ChainEntry.defaultConfirmations,
                rateLimit: rateLimit ?? existing?.rateLimit, nativeCoin: nativeCoin,
                dust: dust ?? existing?.dust ?? .wait)
            let check = noCheck ? nil : try await VaultCheck.check(domain, endpoints: rpc)
            let replaced = registry.add(entry)
            try global.host.saveChainRegistry(registry)
            if case .unreachable(let reasons) = check {
                note(
                    "tender: warning: the vault is not checked: no endpoint answered (\(reasons.joined(separator: "; "))); `tender sync` checks it once one does"
                )
            }
            if output.json {
                let checked: String =
                    switch check {
                    case nil: "skipped"
                    case .confirmed: "confirmed"
                    case .unreachable: "unreachable"
                    }
                try printJSON(["chain": describe(entry), "replaced": replaced, "vault": checked])
            } else {
                print(
                    "\(replaced ? "Changed" : "Added") chain \(chainID), vault \(entry.domain.vault): \(rpc.map(RedactedURL.text).joined(separator: ", "))"
                )
                if case .confirmed(let endpoint) = check {
                    print(
                        "Checked: a Tender vault at \(entry.domain.vault) on chain \(chainID) (\(RedactedURL.text(endpoint)))"
                    )
                }
            }
        }
    }
}

struct ChainListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Show the chain registry.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let registry = try global.host.chainRegistry()
            // Before `tender init` the registry may already list the vault init will take.
            let home = global.directory.exists ? try global.openWallet().domain : nil
            if output.json {
                var result: [String: Any] = ["chains": registry.entries.map(describe)]
                result["home"] = home.map {
                    ["chainId": $0.chainID, "vault": $0.vault.checksummed]
                }
                try printJSON(result)
                return
            }
            let issuerFolder = FileManager.default.fileExists(atPath: global.directory.issuerKey)
            print(
                home.map { "Home: chain \($0.chainID), vault \($0.vault)" }
                    ?? (issuerFolder
                        ? "Home: none (an issuer's folder: its commands take the vault listed, or --vault)"
                        : "Home: none yet (tender init)"))
            if registry.entries.isEmpty { print("No chains listed (tender chain add).") }
            for entry in registry.entries {
                let rate = entry.rateLimit.map { ", at most \($0) requests/s" } ?? ""
                let coin = entry.nativeCoin.map { "; its coin \($0)" } ?? ""
                let dust =
                    entry.dust == .redeem
                    ? "; coins redeemed whatever their gas"
                    : "; coins worth less than their gas wait"
                print(
                    "Chain \(entry.domain.chainID), vault \(entry.domain.vault): \(entry.endpoints.map(RedactedURL.text).joined(separator: ", ")); \(entry.confirmations) confirmations\(rate)\(coin)\(dust)"
                )
            }
        }
    }
}

struct ChainRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a vault's entry (coins held there stay; they wait until it is back).",
        discussion: """
            A chain with entries of several vaults needs --vault (or --all-vaults for every one).

            Example: tender chain remove --id 10 --vault 0x…
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(name: .customLong("id"), help: "The chain id.") var chainID: UInt64
    @Option(help: "Only this vault's entry.") var vault: String?
    @Flag(name: .customLong("all-vaults"), help: "Every vault's entry of the chain.")
    var allVaults = false

    func validate() throws {
        if allVaults && vault != nil {
            throw ValidationError("give --vault or --all-vaults, not both")
        }
    }

    func run() throws {
        try guarded {
            var registry = try global.host.chainRegistry()
            let vault = try vault.map { try parseAddress($0, option: "--vault") }
            let entries = registry.entries.filter { $0.domain.chainID == chainID }
            if vault == nil && !allVaults && entries.count > 1 {
                throw NodeError(
                    .usage(
                        "chain \(chainID) has entries of \(entries.count) vaults (\(entries.map { $0.domain.vault.checksummed }.joined(separator: ", "))): name the one to remove with --vault, or give --all-vaults"
                    ))
            }
            let removed = registry.remove(chainID: chainID, vault: vault)
            guard removed > 0 else {
                throw NodeError(
                    .missing(
                        vault.map { "vault \($0) of chain \(chainID) is not in the chain registry" }
                            ?? "chain \(chainID) is not in the chain registry"))
            }
            try global.host.saveChainRegistry(registry)
            if output.json {
                try printJSON(["removed": removed])
            } else {
                let vaults = entries.filter { vault == nil || $0.domain.vault == vault }
                    .map { $0.domain.vault.checksummed }.joined(separator: ", ")
                print(
                    "Removed \(removed) entr\(removed == 1 ? "y" : "ies") of chain \(chainID): vault \(vaults)"
                )
            }
        }
    }
}

private func describe(_ entry: ChainEntry) -> [String: Any] {
    var item: [String: Any] = [
        "chainId": entry.domain.chainID, "vault": entry.domain.vault.checksummed,
        // Credentials in a URL stay in chains.toml: never on a screen or in a log.
        "rpc": entry.endpoints.map(RedactedURL.text), "confirmations": entry.confirmations,
        "dust": entry.dust.rawValue,
    ]
    item["rateLimit"] = entry.rateLimit
    if let coin = entry.nativeCoin {
        item["nativeCoin"] = ["symbol": coin.symbol ?? "", "decimals": coin.decimals]
    }
    return item
}
