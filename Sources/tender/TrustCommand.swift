import ArgumentParser
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
    @OptionGroup var output: OutputOptions
    @Argument(help: "Issuer address.") var issuer: String

    func run() throws {
        try guarded {
            let address = try parseAddress(issuer, option: "issuer")
            try global.openWallet().trust(address, now: global.clock.now())
            if output.json {
                try printJSON(["trusted": address.checksummed])
            } else {
                print("Trusting issuer \(address)")
            }
        }
    }
}

struct TrustRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Stop trusting an issuer (coins already held stay).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Issuer address.") var issuer: String

    func run() throws {
        try guarded {
            let address = try parseAddress(issuer, option: "issuer")
            let wasTrusted = try global.openWallet().distrust(address)
            if output.json {
                try printJSON(["removed": address.checksummed, "wasTrusted": wasTrusted])
            } else {
                print(
                    wasTrusted
                        ? "No longer trusting issuer \(address)"
                        : "Issuer \(address) was not trusted; nothing changed")
            }
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
            let issuers = try global.openWallet().trustedIssuers().sorted().map(\.checksummed)
            if output.json {
                try printJSON(["trusted": issuers])
            } else {
                if issuers.isEmpty {
                    print(
                        "No trusted issuers: `tender trust add ISSUER` to accept an issuer's notes."
                    )
                }
                issuers.forEach { print($0) }
            }
        }
    }
}
