import ArgumentParser
import Keystore
import NodeKit
import Tender

struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Manage the issuers whose notes this wallet accepts (operator mode).",
        subcommands: [TrustAddCommand.self, TrustRemoveCommand.self, TrustListCommand.self])
}

struct TrustAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Trust an issuer.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Issuer address.") var issuer: String

    func run() throws {
        try guarded {
            let address = try parseAddress(issuer, option: "issuer")
            try global.openWallet().store.trust(address, now: global.clock.now())
            print("Trusting issuer \(address)")
        }
    }
}

struct TrustRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Stop trusting an issuer.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Issuer address.") var issuer: String

    func run() throws {
        try guarded {
            let address = try parseAddress(issuer, option: "issuer")
            try global.openWallet().store.distrust(address)
            print("No longer trusting issuer \(address)")
        }
    }
}

struct TrustListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List trusted issuers.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let issuers = try global.openWallet().store.trustedIssuers().sorted().map(\.checksummed)
            if output.json {
                try printJSON(["trusted": issuers])
            } else {
                issuers.forEach { print($0) }
            }
        }
    }
}
