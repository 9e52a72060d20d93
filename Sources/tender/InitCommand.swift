import ArgumentParser
import Foundation
import Keystore
import NodeKit
import Tender
import WalletStore

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a wallet: a new key with its recovery words, or one restored from them.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Flag(help: "Restore from recovery words ($TENDER_MNEMONIC_FILE, or typed on a terminal).")
    var restore = false

    @Option(help: "Number of recovery words for a new wallet (12, 15, 18, 21 or 24).")
    var words = 24

    @Option(name: .customLong("chain-id"), help: "Chain id the wallet's notes are signed for.")
    var chainID: UInt64 = NodeDefaults.chainID

    @Option(help: "Vault contract address (EIP-712 verifyingContract).")
    var vault: String = NodeDefaults.vault.checksummed

    @Option(
        name: .customLong("scrypt-n"),
        help:
            "scrypt cost N for the key file (a power of two; lower only for tests or slow devices)."
    )
    var scryptN = ScryptCost.standard.n

    func validate() throws {
        guard [12, 15, 18, 21, 24].contains(words) else {
            throw ValidationError("--words must be 12, 15, 18, 21 or 24")
        }
        _ = try parseAddress(vault, option: "--vault")
    }

    func run() throws {
        try guarded {
            let directory = global.directory
            guard !directory.exists else { throw NodeError(.alreadyInitialised(directory.path)) }
            let cost: ScryptCost
            do { cost = try ScryptCost(n: scryptN) } catch {
                throw ValidationError("--scrypt-n: \(error)")
            }
            let mnemonic = try restore ? readMnemonic() : Mnemonic.generate(wordCount: words)
            try directory.create()
            let key = try global.keys.createWalletKey(mnemonic: mnemonic, cost: cost)
            let address = Address(publicKey: key.publicKey)
            let domain = Domain(chainID: chainID, vault: try parseAddress(vault, option: "--vault"))
            let store = try WalletStore(path: directory.database)
            try store.bind(address: address, domain: domain)
            try store.close()
            if output.json {
                var result: [String: Any] = [
                    "address": address.checksummed, "dataDir": directory.path,
                    "chainId": String(domain.chainID), "vault": domain.vault.checksummed,
                ]
                if !restore { result["mnemonic"] = mnemonic.phrase }
                try printJSON(result)
            } else {
                print("Wallet \(address) created in \(directory.path)")
                print("Chain \(domain.chainID), vault \(domain.vault)")
                if !restore {
                    print("Recovery words (write them down; they restore this wallet anywhere):")
                    print(mnemonic.phrase)
                }
            }
        }
    }

    private func readMnemonic() throws -> Mnemonic {
        let text: String
        if let path = ProcessInfo.processInfo.environment["TENDER_MNEMONIC_FILE"] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw NodeError(.file("cannot read \(path) (TENDER_MNEMONIC_FILE)"))
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
