import ArgumentParser
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
            The signing account pays the gas. Wallets whose notes this vault backs are made \
            with `tender init --chain-id ID --vault ADDRESS`.
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
                }
            }
        }
    }
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
            let address = try vault.address(global)
            try await chain.connect(host: global.host) { desk in
                // An address without code is no vault, not an empty one.
                try await desk.requireCode(at: address)
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
    @Option(help: "Vault address (default: this wallet's, else the embedded default).")
    var vault: String?

    /// `--vault`, else the data directory's wallet's, else the embedded default.
    func address(_ global: GlobalOptions) throws -> Address {
        if let vault { return try parseAddress(vault, option: "--vault") }
        return (try? global.openWallet().domain.vault) ?? NodeDefaults.vault
    }
}
