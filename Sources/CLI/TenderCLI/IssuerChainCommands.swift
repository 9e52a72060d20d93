import ArgumentParser
import Foundation
import NodeKit
import NodeRuntime
import Tender

struct IssuerDepositCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deposit",
        abstract: "Lock collateral in the vault for the notes this issuer signs.",
        discussion: """
            Deposits --amount of --asset from the issuer's account (a token is approved for \
            the vault first), then, with --lock-for, locks the issuer's collateral that long \
            from now: a lock is only ever extended, and notes are accepted in open mode only \
            while it outlasts them. The issuer's account pays the gas.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var chain: ChainOptions
    @OptionGroup var output: OutputOptions
    @Option(
        parsing: .unconditional,
        help:
            "Amount, as people read it (2.50), or in base units when the asset's decimals are not known."
    )
    var amount: String
    @Option(help: "Asset (token contract; the zero address is the native coin).")
    var asset: String = Address.zero.checksummed
    @OptionGroup var vault: VaultOption
    @Option(name: .customLong("lock-for"), help: "Lock the collateral this many seconds from now.")
    var lockFor: UInt64?

    func validate() throws {
        if let lockFor, !(1...3_153_600_000).contains(lockFor) {
            throw ValidationError("--lock-for must be 1…3153600000 seconds (a hundred years)")
        }
    }

    func run() async throws {
        try await guarded {
            let assetAddress = try parseAddress(asset, option: "--asset")
            let vaultAddress = try vault.address(global)
            let key = try global.keys.issuerKey()
            let lockUntil = lockFor.map { global.clock.now() + $0 }
            try await chain.connect(host: global.host) { desk in
                let units = try await desk.denomination(of: assetAddress)
                let amount = try units.positiveAmount(amount)
                let deposit = try await desk.deposit(
                    amount, of: assetAddress, into: vaultAddress, key: key, lockUntil: lockUntil)
                if output.json {
                    try printJSON([
                        "issuer": deposit.issuer.checksummed, "vault": vaultAddress.checksummed,
                        "asset": assetAddress.checksummed, "deposited": String(amount),
                        "collateral": deposit.collateral.description,
                        "lockedUntil": deposit.lockedUntil.description,
                        "transactions": deposit.transactions.map(\.hex),
                    ])
                    return
                }
                if let already = deposit.alreadyLockedUntil {
                    print("The collateral is already locked past that: \(already.lockText)")
                }
                print(
                    "Deposited \(units.format(amount)) (asset \(assetAddress)) into vault \(vaultAddress) on chain \(desk.chainID): issuer \(deposit.issuer) now has \(deposit.collateral.formatted(units)), \(deposit.lockedUntil.lockText)"
                )
            }
        }
    }
}

struct IssuerStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "The issuer's collateral and lock in the vault.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var chain: ChainOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var vault: VaultOption

    func run() async throws {
        try await guarded {
            let issuer = try global.keys.address(ofKeyAt: global.directory.issuerKey)
            let vaultAddress = try vault.address(global)
            try await chain.connect(host: global.host) { desk in
                try await desk.requireCode(at: vaultAddress)
                let holdings = try await desk.holdings(of: vaultAddress)
                let mine = holdings.rows.filter { $0.issuer == issuer }
                let lock = holdings.lockedUntil(issuer)
                if output.json {
                    try printJSON([
                        "issuer": issuer.checksummed, "vault": vaultAddress.checksummed,
                        "chainId": desk.chainID, "block": holdings.block,
                        "lockedUntil": lock.description,
                        "collateral": Dictionary(
                            uniqueKeysWithValues: mine.map {
                                ($0.asset.checksummed, $0.amount.description)
                            }),
                    ])
                    return
                }
                print(
                    "Issuer \(issuer) in vault \(vaultAddress) (chain \(desk.chainID), block \(holdings.block)): \(lock.lockText)"
                )
                if mine.isEmpty { print("  no collateral: `tender issuer deposit --amount N`") }
                let units = try await desk.denominations(of: mine.map(\.asset))
                for entry in mine {
                    print("  asset \(entry.asset): \(entry.amount.formatted(units[entry.asset]!))")
                }
            }
        }
    }
}
