import ArgumentParser
import DevTools
import EVM
import NodeKit
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
            try await chain.connect { rpc, chainID in
                let vaultOperator = VaultOperator(key: key, rpc: rpc, chainID: chainID)
                let (vault, receipt) = try await vaultOperator.deploy()
                if output.json {
                    try printJSON([
                        "vault": vault.checksummed, "chainId": chainID,
                        "deployer": vaultOperator.address.checksummed,
                        "transaction": receipt.transactionHash.hex, "block": receipt.blockNumber,
                        "gasUsed": receipt.gasUsed, "compiler": VaultInitCode.compiler,
                    ])
                } else {
                    print(
                        "Vault \(vault) deployed on chain \(chainID) by \(vaultOperator.address) in block \(receipt.blockNumber) (\(receipt.gasUsed) gas, \(VaultInitCode.compiler))"
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
            let host = global.host
            try await chain.connect { rpc, chainID in
                let read = try await rpc.vaultCollateral(address)
                let rows = read.entries.sorted { ($0.issuer, $0.asset) < ($1.issuer, $1.asset) }
                if output.json {
                    try printJSON([
                        "vault": address.checksummed, "chainId": chainID, "block": read.block,
                        "collateral": rows.map {
                            [
                                "issuer": $0.issuer.checksummed, "asset": $0.asset.checksummed,
                                "amount": String($0.amount),
                                "lockedUntil": String(read.lockedUntil[$0.issuer] ?? 0),
                            ]
                        },
                    ])
                    return
                }
                print("Vault \(address) on chain \(chainID), block \(read.block):")
                if rows.isEmpty { print("  no collateral deposited yet") }
                let units = try await issuerDenominations(
                    of: rows.map(\.asset), chainID: chainID, host: host, rpc: rpc)
                for row in rows {
                    let amount = formatChainAmount(row.amount, units[row.asset]!)
                    print(
                        "  issuer \(row.issuer), asset \(row.asset): \(amount), \(lockText(read.lockedUntil[row.issuer]))"
                    )
                }
            }
        }
    }
}

/// "locked until …" or "not locked", for a vault's `lockedUntil`.
func lockText(_ until: Wei?) -> String {
    guard let until, until > 0, let seconds = UInt64(exactly: until) else { return "not locked" }
    return "locked until \(UTCTime.format(seconds))"
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
