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
    @OptionGroup var collateral: CollateralAmount
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
            let assetAddress = try parseAddress(collateral.asset, option: "--asset")
            let target = try vault.target(global, chain)
            let vaultAddress = target.domain.vault
            let key = try global.keys.issuerKey()
            let lockUntil = lockFor.map { global.clock.now() + $0 }
            try await chain.connect(to: target, host: global.host) { desk in
                let units = try await desk.denomination(of: assetAddress)
                let amount = try units.typedAmount(collateral.amount, of: assetAddress)
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
            let target = try vault.target(global, chain)
            let vaultAddress = target.domain.vault
            try await chain.connect(to: target, host: global.host) { desk in
                try await desk.requireVault(at: vaultAddress)
                let holdings = try await desk.holdings(of: vaultAddress)
                let mine = holdings.rows.filter { $0.issuer == issuer }
                let lock = holdings.lockedUntil(issuer)
                let outstanding = try global.host.issuanceLedger().outstanding(
                    in: Domain(chainID: desk.chainID, vault: vaultAddress),
                    now: global.clock.now())
                if output.json {
                    try printJSON([
                        "issuer": issuer.checksummed, "vault": vaultAddress.checksummed,
                        "chainId": desk.chainID, "block": holdings.block,
                        "lockedUntil": lock.description,
                        "collateral": Dictionary(
                            uniqueKeysWithValues: mine.map {
                                ($0.asset.checksummed, $0.amount.description)
                            }),
                        "outstanding": Dictionary(
                            uniqueKeysWithValues: outstanding.map {
                                (
                                    $0.key.checksummed,
                                    [
                                        "total": String($0.value.total), "notes": $0.value.notes,
                                        "lastExpiry": $0.value.lastExpiry,
                                    ] as [String: Any]
                                )
                            }),
                    ])
                    return
                }
                print(
                    "Issuer \(issuer) in vault \(vaultAddress) (chain \(desk.chainID), block \(holdings.block)): \(lock.lockText)"
                )
                if mine.isEmpty { print("  no collateral: `tender issuer deposit --amount N`") }
                let assets = Array(Set(mine.map(\.asset)).union(outstanding.keys)).sorted()
                let units = try await desk.denominations(of: assets)
                for asset in assets {
                    let collateral = mine.first { $0.asset == asset }?.amount ?? .zero
                    var line = "  asset \(asset): \(collateral.formatted(units[asset]!))"
                    if let issued = outstanding[asset] {
                        line +=
                            "; outstanding (issued from this folder, not yet expired, redeemed ones included): \(units[asset]!.format(issued.total)) in \(issued.notes) note(s), the last expiring \(UTCTime.format(issued.lastExpiry))"
                    }
                    print(line)
                }
            }
        }
    }
}

struct IssuerLockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Extend the lock of the issuer's collateral, without a deposit.",
        discussion: """
            Open-mode payees take an issuer's notes only while its collateral is locked past \
            their expiry: lock it past the last note's. A lock is only ever extended. The \
            issuer's account pays the gas.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var chain: ChainOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var vault: VaultOption
    @Option(name: .customLong("lock-for"), help: "Lock the collateral this many seconds from now.")
    var lockFor: UInt64

    func validate() throws {
        guard (1...3_153_600_000).contains(lockFor) else {
            throw ValidationError("--lock-for must be 1…3153600000 seconds (a hundred years)")
        }
    }

    func run() async throws {
        try await guarded {
            let target = try vault.target(global, chain)
            let key = try global.keys.issuerKey()
            let until = global.clock.now() + lockFor
            try await chain.connect(to: target, host: global.host) { desk in
                let transaction = try await desk.lock(
                    until: until, in: target.domain.vault, key: key)
                if output.json {
                    try printJSON([
                        "vault": target.domain.vault.checksummed, "chainId": desk.chainID,
                        "lockedUntil": until, "transaction": transaction.hex,
                    ])
                    return
                }
                print(
                    "Collateral in vault \(target.domain.vault) (chain \(desk.chainID)) locked until \(UTCTime.format(until)): \(transaction.hex)"
                )
            }
        }
    }
}

struct IssuerWithdrawCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "withdraw",
        abstract: "Take collateral back from the vault once its lock has ended.",
        discussion: """
            The vault pays it back only after the lock (which lasts past every note's \
            expiry). Notes issued from this folder that have not expired are named first: \
            a payee may still redeem them against what is left. The issuer's account pays \
            the gas.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var chain: ChainOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var vault: VaultOption
    @OptionGroup var collateral: CollateralAmount

    func run() async throws {
        try await guarded {
            let assetAddress = try parseAddress(collateral.asset, option: "--asset")
            let target = try vault.target(global, chain)
            let key = try global.keys.issuerKey()
            let now = global.clock.now()
            try await chain.connect(to: target, host: global.host) { desk in
                let units = try await desk.denomination(of: assetAddress)
                let amount = try units.typedAmount(collateral.amount, of: assetAddress)
                let domain = Domain(chainID: desk.chainID, vault: target.domain.vault)
                let outstanding = try global.host.issuanceLedger().outstanding(
                    in: domain, now: now)[assetAddress]
                if let outstanding, outstanding.total > 0, !output.json {
                    print(
                        "Notes issued from this folder and not expired: \(units.format(outstanding.total)) in \(outstanding.notes) note(s), until \(UTCTime.format(outstanding.lastExpiry)); payees redeem them against what is left."
                    )
                }
                let (transaction, left) = try await desk.withdraw(
                    amount, of: assetAddress, from: target.domain.vault, key: key, now: now,
                    units: units)
                if output.json {
                    try printJSON([
                        "vault": target.domain.vault.checksummed, "chainId": desk.chainID,
                        "asset": assetAddress.checksummed, "withdrawn": String(amount),
                        "collateral": left.description, "transaction": transaction.hex,
                    ])
                    return
                }
                print(
                    "Withdrew \(units.format(amount)) (asset \(assetAddress)) from vault \(target.domain.vault) on chain \(desk.chainID): \(left.formatted(units)) left; \(transaction.hex)"
                )
            }
        }
    }
}

/// `--amount` and `--asset` of a deposit or a withdrawal.
struct CollateralAmount: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help:
            "Amount, as people read it (2.50), or in base units when the asset's decimals are not known."
    )
    var amount: String
    @Option(help: "Asset (token contract; the zero address is the native coin).")
    var asset: String = Address.zero.checksummed
}
