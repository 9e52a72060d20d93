import ArgumentParser
import DevTools
import Foundation
import Keystore
import NodeKit
import Tender

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a wallet: a new key with its recovery words, or one restored from them.",
        discussion: """
            Its home vault: --chain-id and --vault, else the one vault chains.toml lists \
            (`tender chain add` may come first), else the development chain's, said.

            Examples:
              tender init
              tender init --chain-id 11155111 --vault 0x…
              TENDER_MNEMONIC_FILE=words.txt tender init --restore
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Restore from recovery words ($TENDER_MNEMONIC_FILE, or typed on a terminal).")
    var restore = false

    @Option(help: "Number of recovery words for a new wallet (12, 15, 18, 21 or 24).")
    var words = 24

    @Option(
        name: .customLong("chain-id"),
        help:
            "Chain id of the home domain: the vault's chain (default: the one chains.toml lists, else \(NodeDefaults.chainID))."
    )
    var chainID: UInt64?

    @Option(
        help:
            "Vault of the home domain, where the node's requests ask to be paid (default: the one chains.toml lists, else the development chain's \(NodeDefaults.vault.checksummed))."
    )
    var vault: String?

    @Option(
        name: .customLong("scrypt-n"),
        help:
            "scrypt cost N for the key file (a power of two, at least 1024; lower than the default only for tests or slow devices)."
    )
    var scryptN = ScryptCost.standard.n

    func validate() throws {
        guard [12, 15, 18, 21, 24].contains(words) else {
            throw ValidationError("--words must be 12, 15, 18, 21 or 24")
        }
        if let vault { _ = try parseAddress(vault, option: "--vault") }
        _ = try scryptCost(scryptN)
    }

    func run() throws {
        try guarded {
            let host = global.host
            guard !host.directory.exists else {
                throw NodeError(.exists("a wallet already exists at \(host.directory.path)"))
            }
            let cost = try scryptCost(scryptN)
            let mnemonic = try restore ? readMnemonic() : Mnemonic.generate(wordCount: words)
            // The home domain: as given, else the vault `tender chain add` listed here first.
            let domain = try ChainTarget.resolve(
                host, vault: try vault.map { try parseAddress($0, option: "--vault") },
                chainID: chainID, rpc: nil
            ).domain
            let isDevelopmentDefault =
                domain == Domain(chainID: NodeDefaults.chainID, vault: NodeDefaults.vault)
            let address = try host.createWallet(mnemonic: mnemonic, domain: domain, cost: cost)
            if output.json {
                var result: [String: Any] = [
                    "address": address.checksummed, "dataDir": host.directory.path,
                    "chainId": String(domain.chainID), "vault": domain.vault.checksummed,
                ]
                if !restore { result["mnemonic"] = mnemonic.phrase }
                try printJSON(result)
            } else {
                print("Wallet \(address) created in \(host.directory.path)")
                print("Home: chain \(domain.chainID), vault \(domain.vault)")
                if isDevelopmentDefault {
                    print(
                        "(the development chain's first vault: for a vault an issuer deployed, start again with --chain-id and --vault, or list it first with `tender chain add`)"
                    )
                }
                if !restore {
                    print(
                        "Recovery words (write them down): they restore this wallet's key and address on any device, not its coins. The coins are in \(host.directory.database): back them up with `tender backup --out FILE` (Docs/BACKUP.md)."
                    )
                    print(mnemonic.phrase)
                } else {
                    print(
                        "Key and address restored. Coins are not in the words: restore the data directory's backup to have them back."
                    )
                }
            }
        }
    }

    private func readMnemonic() throws -> Mnemonic {
        let text: String
        if let path = ProcessInfo.processInfo.environment["TENDER_MNEMONIC_FILE"] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw NodeError(.missing("cannot read \(path) (TENDER_MNEMONIC_FILE)"))
            }
            text = String(decoding: data, as: UTF8.self)
        } else if isatty(STDIN_FILENO) == 1 {
            FileHandle.standardError.write(Data("Recovery words: ".utf8))
            text = readLine() ?? ""
        } else {
            throw NodeError(.usage("--restore needs TENDER_MNEMONIC_FILE or a terminal"))
        }
        do { return try Mnemonic(phrase: text) } catch {
            throw NodeError(.key("recovery words: \(error)"))
        }
    }
}

/// A scrypt cost for a new key file: a power of two from 1024 up.
func scryptCost(_ n: Int) throws -> ScryptCost {
    guard n >= ScryptCost.minimumNewN else {
        throw ValidationError(
            "--scrypt-n \(n) is too cheap to protect a key: at least \(ScryptCost.minimumNewN) (the default is \(ScryptCost.standard.n))"
        )
    }
    do { return try ScryptCost(n: n) } catch { throw ValidationError("--scrypt-n: \(error)") }
}
