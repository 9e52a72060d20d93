import ArgumentParser
import Camera
import Foundation
import NodeKit
import Printing
import QR
import Tender
import WalletStore

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help:
            "Data directory (default: $TENDER_HOME, else $XDG_DATA_HOME/tender, else ~/.local/share/tender)."
    )
    var dataDir: String?

    var directory: DataDirectory { DataDirectory(explicit: dataDir) }

    var keys: KeyVault { KeyVault(directory: directory) }

    var clock: any WallClock { ProcessInfo.processInfo.tenderClock }

    /// Opens the wallet of an initialised data directory.
    func openWallet() throws -> Wallet {
        guard directory.exists else { throw NodeError(.notInitialised(directory.path)) }
        return try Wallet(store: try WalletStore(path: directory.database))
    }
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
        do { try body() } catch let error as ExitCode { throw error } catch let error
            as ValidationError
        { throw error } catch {
            let failure = Failure(error)
            FileHandle.standardError.write(Data("tender: error: \(failure.message)\n".utf8))
            throw ExitCode(failure.exitCode)
        }
    }
}

struct Failure {
    let message: String
    let exitCode: Int32

    init(_ error: any Error) {
        switch error {
        case let error as NodeError:
            message = error.description
            exitCode = error.exitCode
        case let error as ProtocolError:
            message = "rejected: \(error)"
            exitCode = 65
        case let error as WalletStoreError:
            let node = NodeError(.store(error))
            message = node.description
            exitCode = node.exitCode
        case let error as CameraError:
            message = error.message
            exitCode =
                switch error.kind {
                case .noDevice: 66
                case .permissionDenied: 77
                default: 74
                }
        case let error as QRError:
            message = error.description
            exitCode = 65
        case let error as PrintingError:
            message = error.description
            exitCode = 74
        default:
            message = String(describing: error)
            exitCode = 74
        }
    }
}

/// Parses decimal amounts up to 2^128 - 1.
func parseAmount(_ text: String, option: String = "--amount") throws -> Amount {
    guard let amount = Amount(text), amount > 0 else {
        throw ValidationError("\(option) must be a positive integer below 2^128, got '\(text)'")
    }
    return amount
}

func parseAddress(_ text: String, option: String) throws -> Address {
    do { return try Address(text) } catch { throw ValidationError("\(option): \(error)") }
}

func printJSON(_ value: Any) throws {
    let data = try JSONSerialization.data(
        withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    print(String(decoding: data, as: UTF8.self))
}
