import ArgumentParser
import DevTools
import Keystore
import NodeHost
import NodeKit
import NodeRuntime
import Tender
import WalletStore

struct IssuerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issuer",
        abstract: "An issuer: its key, its collateral in the vault, and the notes it signs.",
        subcommands: [
            IssuerInitCommand.self, IssuerAddressCommand.self, IssuerDepositCommand.self,
            IssuerStatusCommand.self, IssuerIssueCommand.self, IssuerLockCommand.self,
            IssuerWithdrawCommand.self,
        ])
}

struct IssuerInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create the issuer key in the data directory.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("scrypt-n"), help: "scrypt cost N for the issuer key file.")
    var scryptN = ScryptCost.standard.n

    func run() throws {
        try guarded {
            let cost = try scryptCost(scryptN)
            try global.directory.create()
            let key = try global.keys.createIssuerKey(cost: cost)
            let address = Address(publicKey: key.publicKey)
            if output.json {
                try printJSON(["issuer": address.checksummed])
            } else {
                print("Issuer \(address) created in \(global.directory.path)")
            }
        }
    }
}

struct IssuerAddressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "address", abstract: "Print the issuer's address.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let address = try global.keys.address(ofKeyAt: global.directory.issuerKey)
            if output.json {
                try printJSON(["issuer": address.checksummed])
            } else {
                print(address.checksummed)
            }
        }
    }
}

struct IssuerIssueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issue",
        abstract: "Sign notes to a recipient, written as a payment file it takes with `receive`.",
        discussion: """
            Examples:
              tender issuer issue --to 0xALICE --amount 5 --count 4 --out notes.tender
              tender issuer issue --to 0xALICE --amount 5 --offline --out notes.tender
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Recipient address.") var to: String
    @Option(
        parsing: .unconditional,
        help:
            "Amount of each note, as people read it (2.50), or in base units when the asset's decimals are not known."
    )
    var amount: String
    @Option(help: "Number of notes.") var count = 1
    @Option(help: "Asset (token contract; the zero address is the native coin).")
    var asset: String = NodeDefaults.asset.checksummed
    @Option(name: .customLong("expires-in"), help: "Seconds until the notes expire.")
    var expiresIn: UInt64 = NodeDefaults.noteLifetime
    @Option(
        name: .customLong("chain-id"),
        help: "Chain id (default: this wallet's, else the one chains.toml lists, else 31337).")
    var chainID: UInt64?
    @Option(
        help:
            "Vault address (default: this wallet's, else the one chains.toml lists, else the embedded default)."
    )
    var vault: String?
    @Option(help: "File to write the notes to.") var out: String
    @Option(
        help:
            "Check the vault through this endpoint first (default: the vault's in chains.toml): it must hold these notes' total and those issued before, for the issuer, locked past their expiry."
    )
    var rpc: String?
    @Flag(
        help:
            "Issue without asking the chain (no network): the collateral is not checked, the notes are still recorded."
    )
    var offline = false

    func validate() throws {
        guard !(offline && rpc != nil) else {
            throw ValidationError("--offline does not ask the chain: drop --rpc")
        }
        // A hundred years is far past any collateral; the sum with the clock must not overflow.
        guard (1...3_153_600_000).contains(expiresIn) else {
            throw ValidationError("--expires-in must be 1…3153600000 seconds (a hundred years)")
        }
    }

    func run() async throws {
        try await guarded {
            let recipient = try parseAddress(to, option: "--to")
            let assetAddress = try parseAddress(asset, option: "--asset")
            // The notes are for the recipient's chain and vault: as given, else this data
            // directory's (its wallet's, its chains.toml's), else the embedded defaults.
            let target = try ChainTarget.resolve(
                global.host, vault: try vault.map { try parseAddress($0, option: "--vault") },
                chainID: chainID, rpc: nil)
            let domain = target.domain
            // Checked through --rpc, else the registry's endpoint for the vault; a vault the
            // registry does not list is checked only when asked (--rpc).
            let listed = try global.host.chainRegistry().entry(for: domain) != nil
            let checkedAt = offline ? nil : rpc ?? (listed ? target.endpoint : nil)
            let issuer = Issuer(key: try global.keys.issuerKey(), domain: domain)
            var generator = SystemRandomNumberGenerator()
            let now = global.clock.now()
            let (host, amount, count, expiresIn) = (global.host, amount, count, expiresIn)
            // Notes issued before from this folder and not expired count against the
            // collateral too: two calls may not issue it twice.
            let issuing = try host.directory.lockForIssuing()
            defer { withExtendedLifetime(issuing) {} }
            let ledger = try host.issuanceLedger()
            let outstanding = try ledger.outstanding(in: domain, now: now)
            let (noteAmount, units): (Amount, Denomination)
            if let rpc = checkedAt {
                // One connection: the chain's id, the token's decimals, the collateral.
                do {
                    (noteAmount, units) = try await VaultDesk.connect(to: rpc, host: host) { desk in
                        guard desk.chainID == domain.chainID else {
                            throw NodeError(
                                .usage(
                                    "\(rpc) serves chain \(desk.chainID); these notes are for chain \(domain.chainID)"
                                ))
                        }
                        let units = try await desk.denomination(of: assetAddress)
                        let noteAmount = try units.positiveAmount(amount)
                        let (total, overflow) = noteAmount.multipliedReportingOverflow(
                            by: Amount(clamping: count))
                        guard !overflow else {
                            throw ValidationError("--amount × --count exceeds 2^128")
                        }
                        let assetUnits =
                            assetAddress == .zero
                            ? Denominations(nativeCoin: units)
                            : Denominations(tokens: [assetAddress: units])
                        do {
                            try await desk.requireCollateral(
                                issuer: issuer.address, asset: assetAddress, total: total,
                                outstanding: outstanding[assetAddress]?.total ?? 0,
                                expiry: now + expiresIn, vault: domain.vault, units: units)
                        } catch let error as NodeError {
                            throw Failure.Worded(error: error, units: assetUnits)
                        }
                        return (noteAmount, units)
                    }
                } catch let error as NodeError {
                    throw Self.offlineNoted(error)
                }
            } else {
                units = try VaultDesk.denomination(
                    of: assetAddress, chainID: domain.chainID, host: host)
                noteAmount = try units.positiveAmount(amount)
            }
            let (payment, envelope) = try issuer.issue(
                to: recipient, amount: noteAmount, count: count, asset: assetAddress,
                expiry: now + expiresIn, using: &generator)
            try FileIO.checkWritable(out)
            // Recorded before the notes leave: a record whose file was never written only
            // overstates what is outstanding, and is taken back below.
            do {
                try ledger.record(
                    IssuanceLedger.Entry(
                        requestID: payment.requestID, domain: domain, asset: assetAddress,
                        total: payment.amount, notes: count, expiry: now + expiresIn,
                        issuedAt: now))
            } catch { throw NodeError(.io("cannot record the issuance: \(error)")) }
            // A failed write to a file took nothing out; one to a device or a pipe may have
            // passed some notes on, so they stay counted.
            let device = FileIO.isDevice(out)
            do { try FileIO.writeAtomically(envelope, to: out) } catch {
                if !device { try? ledger.forget(payment.requestID) }
                throw error
            }
            if output.json {
                try printJSON([
                    "issuer": issuer.address.checksummed, "to": recipient.checksummed,
                    "notes": count, "total": String(payment.amount), "file": out,
                    "requestId": payment.requestID.hex,
                ])
            } else {
                print(
                    "Issued \(count) note(s) of \(units.format(noteAmount)) to \(recipient): \(out)"
                )
            }
        }
    }

    /// An endpoint that does not answer, noted with how to issue without it.
    private static func offlineNoted(_ error: NodeError) -> NodeError {
        guard case .io = error.kind else { return error }
        return NodeError(
            error.kind,
            note:
                "the collateral cannot be checked; --offline issues without it (the notes are still recorded here)",
            resolvedBy: error.resolvedBy)
    }
}
