import ArgumentParser
import Codecs
import DevTools
import NodeKit
import NodeRuntime
import Secp256k1
import Tender

struct VaultCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Deploy the vault contract, or show the collateral it holds.",
        subcommands: [VaultDeployCommand.self, VaultShowCommand.self])
}

/// Which of the data directory's keys signs a transaction.
enum Signer: String, ExpressibleByArgument, CaseIterable {
    case issuer, wallet

    func key(_ global: GlobalOptions) throws -> PrivateKey {
        switch self {
        case .issuer: try global.keys.issuerKey()
        case .wallet: try global.keys.walletKey()
        }
    }
}

struct VaultDeployCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deploy",
        abstract: "Deploy the vault (Contracts/Vault.vy, embedded) and print its address.",
        discussion: """
            The signing account pays the gas. It prints the next steps with the address \
            filled in: `tender chain add` here, then each wallet that takes this vault's \
            notes lists it (`tender chain add`) before its `tender init`, and trusts the \
            issuer.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var chain: ChainOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "The key that signs and pays: issuer or wallet.") var signer = Signer.issuer

    func run() async throws {
        try await guarded {
            let key = try signer.key(global)
            try await chain.connect(host: global.host) { desk in
                let deployed = try await desk.deploy(signer: key)
                if output.json {
                    try printJSON([
                        "vault": deployed.vault.checksummed, "chainId": desk.chainID,
                        "deployer": deployed.deployer.checksummed,
                        "transaction": deployed.transaction.hex, "block": deployed.block,
                        "gasUsed": deployed.gasUsed, "compiler": deployed.compiler,
                    ])
                } else {
                    print(
                        "Vault \(deployed.vault) deployed on chain \(desk.chainID) by \(deployed.deployer) in block \(deployed.block) (\(deployed.gasUsed) gas, \(deployed.compiler))"
                    )
                    // The issuer whose notes the wallets trust: the issuer key's, when there is one.
                    let issuer =
                        (try? global.keys.address(ofKeyAt: global.directory.issuerKey))
                        ?? deployed.deployer
                    print(
                        nextSteps(
                            deployed.vault, chainID: desk.chainID, endpoint: desk.endpoint,
                            issuer: issuer))
                }
            }
        }
    }
}

/// What an issuer does after a deploy, the address filled in: the vault is found by every
/// later command once chains.toml lists it.
private func nextSteps(
    _ vault: Address, chainID: UInt64, endpoint: String, issuer: Address
) -> String {
    let rpc = RedactedURL.text(endpoint)
    return """
        Next steps:
          tender chain add --id \(chainID) --vault \(vault) --rpc \(rpc)
              (here: the issuer's commands then use this vault while it is the only one listed,
               else give --vault; add --native-symbol for the coin's name)
          tender issuer deposit --amount AMOUNT --lock-for SECONDS
              (collateral for the notes you will issue, locked past their expiry)
          tender issuer issue --to ADDRESS --amount AMOUNT --out notes.tender
        Each wallet that takes these notes (a stall, a customer), before its `init`:
          tender chain add --id \(chainID) --vault \(vault) --rpc URL
          tender init      (its home: the vault listed; or tender init --chain-id \(chainID) --vault \(vault))
          tender trust add \(issuer)   (or `tender trust mode open`: issuers by their collateral)
        A stall's address pays the gas of its redeems: send it some of the chain's coin.
        (Add --data-dir DIR to each command for a folder other than the default.)
        """
}

struct VaultShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Every issuer's collateral and lock in the vault, read from the chain now.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var chain: ChainOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var vault: VaultOption

    func run() async throws {
        try await guarded {
            let target = try vault.target(global, chain)
            let address = target.domain.vault
            try await chain.connect(to: target, host: global.host) { desk in
                // An address without code is no vault, not an empty one.
                try await desk.requireVault(at: address)
                let holdings = try await desk.holdings(of: address)
                if output.json {
                    try printJSON([
                        "vault": address.checksummed, "chainId": desk.chainID,
                        "block": holdings.block,
                        "collateral": holdings.rows.map {
                            [
                                "issuer": $0.issuer.checksummed, "asset": $0.asset.checksummed,
                                "amount": $0.amount.description,
                                "lockedUntil": holdings.lockedUntil($0.issuer).description,
                            ]
                        },
                    ])
                    return
                }
                print("Vault \(address) on chain \(desk.chainID), block \(holdings.block):")
                if holdings.rows.isEmpty { print("  no collateral deposited yet") }
                let units = try await desk.denominations(of: holdings.rows.map(\.asset))
                for row in holdings.rows {
                    let amount = row.amount.formatted(units[row.asset]!)
                    print(
                        "  issuer \(row.issuer), asset \(row.asset): \(amount), \(holdings.lockedUntil(row.issuer).lockText)"
                    )
                }
            }
        }
    }
}

/// `--vault` for commands about one vault.
struct VaultOption: ParsableArguments {
    @Option(
        help:
            "Vault address (default: this wallet's, else the one chains.toml lists, else the embedded default)."
    )
    var vault: String?

    /// The vault and its endpoint: `--vault` and `--rpc` as given, the rest from the data
    /// directory (`ChainTarget`).
    func target(_ global: GlobalOptions, _ chain: ChainOptions) throws -> ChainTarget {
        try ChainTarget.resolve(
            global.host, vault: try vault.map { try parseAddress($0, option: "--vault") },
            chainID: nil, rpc: chain.rpc)
    }
}
