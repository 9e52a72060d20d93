import ArgumentParser
import Camera
import Foundation
import NodeHost
import NodeKit
import Printing
import QR
import QRTransport
import Tender

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help:
            "Data directory (default: $TENDER_HOME, else $XDG_DATA_HOME/tender, else ~/.local/share/tender)."
    )
    var dataDir: String?

    var host: NodeHost { NodeHost(dataDir: dataDir) }
    var directory: DataDirectory { host.directory }
    var keys: KeyVault { host.keys }
    var clock: any WallClock { host.clock }

    /// Opens the wallet of an initialised data directory.
    func openWallet() throws(NodeError) -> Wallet { try host.openWallet() }
}

/// `--json` for read commands.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of text.")
    var json = false
}

extension ParsableCommand {
    /// Runs a command body, turning every failure into one readable line on stderr and the
    /// documented exit status.
    func guarded(_ body: () throws -> Void) throws {
        do { try body() } catch { throw Failure.report(error) }
    }

    func guarded(_ body: () async throws -> Void) async throws {
        do { try await body() } catch { throw Failure.report(error) }
    }
}

/// The CLI's exit statuses (README, `tender --help`), mapped in this one place.
enum Failure {
    static let usage: Int32 = 64
    static let rejected: Int32 = 65
    static let missing: Int32 = 66
    static let exists: Int32 = 73
    static let unavailable: Int32 = 69
    static let io: Int32 = 74
    static let busy: Int32 = 75
    static let permission: Int32 = 77

    /// Prints `tender: error: …` and returns the exit to throw; with `--json`, the error as
    /// one JSON object instead (`error`: the stable code the API also gives, `reason`,
    /// `exitStatus`), still on standard error. Validation errors and exit codes pass through
    /// (ArgumentParser prints usage for them).
    static func report(_ error: any Error) -> any Error {
        if error is ExitCode || error is ValidationError { return error }
        let (message, status) = describe(error)
        say(message, code: code(of: error), status: status)
        return ExitCode(status)
    }

    /// Writes an error to standard error: `tender: error: MESSAGE` (then `after`, the usage),
    /// or with `--json` one JSON object (`error`, `reason`, `exitStatus`).
    static func say(_ message: String, code: String, status: Int32, after: String = "") {
        if CommandLine.arguments.dropFirst().contains("--json"),
            let json = try? JSONSerialization.data(
                withJSONObject: ["error": code, "reason": message, "exitStatus": status],
                options: [.sortedKeys, .withoutEscapingSlashes])
        {
            FileHandle.standardError.write(json + Data("\n".utf8))
        } else {
            // A message may quote what came from outside (a token's mint URL, a memo).
            let shown = terminalSafe(message, keeping: ["\n"])
            FileHandle.standardError.write(Data("tender: error: \(shown)\n\(after)".utf8))
        }
    }

    /// The stable name of `error` for scripts (`NodeError.code`).
    static func code(of error: any Error) -> String {
        switch error {
        case let worded as Worded: worded.error.code
        case let error as NodeError: error.code
        case let error as CameraError: NodeError(error).code
        case let error as ProtocolError: error.code
        case is QRError: "rejected"
        default: "io"
        }
    }

    static func describe(_ error: any Error) -> (String, Int32) {
        switch error {
        case let worded as Worded:
            (worded.error.description(in: wording(worded.units)), status(of: worded.error))
        case let error as NodeError: (error.description(in: wording()), status(of: error))
        case let error as CameraError: describe(NodeError(error))
        case let error as ProtocolError:
            ("rejected: \(error.description(in: wording()))", rejected)
        case let error as QRError: (error.description, rejected)
        case let error as PrintingError: (error.description, io)
        default: (String(describing: error), io)
        }
    }

    static func status(of error: NodeError) -> Int32 {
        switch error.kind {
        case .usage: usage
        case .rejected, .overLimit, .refusedOnChain, .refusedByPayee, .refusedEcash: rejected
        case .missing: missing
        case .exists: exists
        case .busy: busy
        case .passphrase, .key, .permission: permission
        case .io: io
        case .unavailable, .noGas: unavailable
        }
    }
}

extension Failure {
    /// How the CLI words errors: amounts as `units` reads them, each resolving step as the
    /// command that takes it.
    static func wording(_ units: Denominations = Denominations()) -> DenominatedWording {
        DenominatedWording(units) { step in
            switch step {
            case .settle: "`tender sync`"
            case .listPayments: "`tender payments list`"
            case .initialise: "run `tender init`"
            case .initialiseIssuer: "run `tender issuer init`"
            case .addMint(let url): "run `tender cashu mint add \(url)` while online"
            case .addChain(let domain):
                "add it: tender chain add --id \(domain.chainID) --vault \(domain.vault) --rpc URL"
            case .listChains: "tender chain list"
            case .startNearbyPayee:
                "is the payee's `tender receive --ble` running, and its adapter in range?"
            case .stopWalletUsers: "`tender node`, or another command, is using it"
            case .setSpendingLimits: "[[limits]] in node.toml, Docs/OPERATIONS.md"
            case .deployVault: "deploy one with `tender vault deploy`, or give --vault"
            case .depositCollateral: "`tender issuer deposit` first"
            case .lockCollateral: "`tender issuer lock --lock-for SECONDS` extends it"
            case .checkChainEndpoint: "is the chain's node running? (--rpc URL)"
            case .restoreElsewhereOrReplace:
                "restore into a new or empty folder (--data-dir), or pass --force to replace it (its contents are kept aside)"
            case .nameDomain: "--chain-id and --vault pay from one"
            case .trustIssuer(let issuer):
                "`tender trust add \(issuer)`, or `tender trust mode open` to take issuers by their collateral"
            case .checkVault: "check --vault: the issuer's `tender vault deploy` printed it"
            case .checkChainID: "check --id, or give an endpoint of that chain"
            case .nameNativeCoin:
                "`tender chain add --id N --vault 0x… --rpc URL --native-symbol ETH` names it; or type base units"
            }
        }
    }

    /// A failure of a command that knows the units of the asset it dealt in.
    struct Worded: Error {
        let error: NodeError
        let units: Denominations
    }
}

/// Runs `body`; a `NodeError` it throws reads in `units` (`need 9.00 DEV`).
func worded<T>(_ units: Denominations, _ body: () async throws -> T) async throws -> T {
    do { return try await body() } catch let error as NodeError {
        throw Failure.Worded(error: error, units: units)
    }
}

func parseAddress(_ text: String, option: String) throws -> Address {
    do { return try Address(text) } catch { throw ValidationError("\(option): \(error)") }
}

func printJSON(_ value: Any) throws {
    let data = try JSONSerialization.data(
        withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}

extension Denominations {
    /// `--amount` typed for `asset`, in base units.
    func parse(_ text: String, of asset: Address) throws(NodeError) -> Amount {
        try parse(text, of: asset, field: "--amount")
    }
}

extension Denomination {
    /// `--amount`, positive, in base units.
    func positiveAmount(_ text: String) throws(NodeError) -> Amount {
        try positiveAmount(text, field: "--amount")
    }

    /// `--amount` of `asset`, these its units: a fraction of a chain coin without a name is
    /// refused saying how to name it (it has no contract to read decimals from).
    func typedAmount(_ text: String, of asset: Address) throws(NodeError) -> Amount {
        let units =
            asset == .zero
            ? Denominations(nativeCoin: self) : Denominations(tokens: [asset: self])
        return try units.parse(text, of: asset)
    }
}
