import ArgumentParser
import EVM
import Foundation
import NodeKit
import Secp256k1
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
            let (host, amount) = (global.host, amount)
            try await chain.connect { rpc, chainID in
                let units = try await issuerDenomination(
                    of: assetAddress, chainID: chainID, host: host, rpc: rpc)
                try await deposit(
                    try units.positiveAmount(amount), units: units, of: assetAddress,
                    into: vaultAddress,
                    key: key, rpc: rpc,
                    chainID: chainID)
            }
        }
    }

    private func deposit(
        _ depositAmount: Amount, units: Denomination, of assetAddress: Address,
        into vaultAddress: Address,
        key: PrivateKey, rpc: EthereumRPC, chainID: UInt64
    ) async throws {
        try await requireCode(at: vaultAddress, rpc)
        let issuer = VaultOperator(key: key, rpc: rpc, chainID: chainID)
        let deposit = try await issuer.deposit(
            Wei(depositAmount), of: assetAddress, into: vaultAddress)
        var lockReceipt: TransactionReceipt?
        if let lockFor {
            let until = global.clock.now() + lockFor
            let current = try await lockedUntil(issuer.address, vaultAddress, rpc)
            if Wei(until) > current {
                lockReceipt = try await issuer.lock(until: until, in: vaultAddress)
            } else if !output.json {
                print("The collateral is already locked past that: \(lockText(current))")
            }
        }
        let read = try await rpc.vaultCollateral(vaultAddress)
        let total =
            read.entries.first { $0.issuer == issuer.address && $0.asset == assetAddress }?
            .amount ?? 0
        let lock = read.lockedUntil[issuer.address]
        if output.json {
            try printJSON([
                "issuer": issuer.address.checksummed, "vault": vaultAddress.checksummed,
                "asset": assetAddress.checksummed, "deposited": String(depositAmount),
                "collateral": String(total), "lockedUntil": String(lock ?? 0),
                "transactions": [deposit.transactionHash.hex]
                    + (lockReceipt.map { [$0.transactionHash.hex] } ?? []),
            ])
        } else {
            print(
                "Deposited \(units.format(depositAmount)) (asset \(assetAddress)) into vault \(vaultAddress): issuer \(issuer.address) now has \(formatChainAmount(total, units)), \(lockText(lock))"
            )
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
            let host = global.host
            try await chain.connect { rpc, chainID in
                try await requireCode(at: vaultAddress, rpc)
                let read = try await rpc.vaultCollateral(vaultAddress)
                let mine = read.entries.filter { $0.issuer == issuer }
                let lock = read.lockedUntil[issuer]
                if output.json {
                    try printJSON([
                        "issuer": issuer.checksummed, "vault": vaultAddress.checksummed,
                        "chainId": chainID, "block": read.block,
                        "lockedUntil": String(lock ?? 0),
                        "collateral": Dictionary(
                            uniqueKeysWithValues: mine.map {
                                ($0.asset.checksummed, String($0.amount))
                            }),
                    ])
                    return
                }
                print(
                    "Issuer \(issuer) in vault \(vaultAddress) (chain \(chainID), block \(read.block)): \(lockText(lock))"
                )
                if mine.isEmpty { print("  no collateral: `tender issuer deposit --amount N`") }
                let units = try await issuerDenominations(
                    of: mine.map(\.asset), chainID: chainID, host: host, rpc: rpc)
                for entry in mine {
                    print(
                        "  asset \(entry.asset): \(formatChainAmount(entry.amount, units[entry.asset]!))"
                    )
                }
            }
        }
    }
}

/// Refuses an address without code: a mistyped vault would swallow a deposit.
func requireCode(at vault: Address, _ rpc: EthereumRPC) async throws {
    guard try await !rpc.code(at: vault).isEmpty else {
        throw NodeError(
            .usage(
                "there is no contract at \(vault) on \(rpc.endpoint): deploy one with `tender vault deploy`, or give --vault"
            ))
    }
}

/// The vault's `lockedUntil(issuer)` at the head.
func lockedUntil(_ issuer: Address, _ vault: Address, _ rpc: EthereumRPC) async throws -> Wei {
    try await rpc.vaultUInt(vault, VaultCalls.lockedUntil(issuer: issuer))
}

/// Before `issuer issue --rpc`: the vault holds at least `total` of the asset for the issuer,
/// locked past the notes' expiry (what an open-mode payee checks against its snapshot).
func requireCollateral(
    issuer: Address, asset: Address, total: Amount, expiry: UInt64, vault: Address,
    _ rpc: EthereumRPC
) async throws {
    try await requireCode(at: vault, rpc)
    let held = try await rpc.vaultUInt(vault, VaultCalls.collateral(issuer: issuer, asset: asset))
    guard held >= Wei(total) else {
        throw NodeError(
            .usage(
                "issuer \(issuer) has \(held) of asset \(asset) in vault \(vault); these notes total \(total): `tender issuer deposit` first"
            ))
    }
    let until = try await lockedUntil(issuer, vault, rpc)
    guard until >= Wei(expiry) else {
        throw NodeError(
            .usage(
                "issuer \(issuer)'s collateral is \(lockText(until)), before these notes expire at \(UTCTime.format(expiry)): `tender issuer deposit --lock-for SECONDS`"
            ))
    }
}
