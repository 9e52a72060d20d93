import ArgumentParser
import Foundation
import NodeKit
import Tender

struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Manage the issuers whose notes this wallet accepts (trusted mode: you vouch for them).",
        subcommands: [
            TrustAddCommand.self, TrustRemoveCommand.self, TrustListCommand.self,
            TrustModeCommand.self, TrustFloorCommand.self,
        ])
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
            // The node's trust, so every wallet of it (one per domain) takes the same issuers.
            for wallet in try global.host.openWallets().all {
                try wallet.trust(address, now: global.clock.now())
            }
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
            var wasTrusted = false
            for wallet in try global.host.openWallets().all where try wallet.distrust(address) {
                wasTrusted = true
            }
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

struct TrustModeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mode",
        abstract: "Show or set whose notes this wallet accepts: trusted issuers, or open.",
        discussion: """
            trusted (the default): only issuers added with `tender trust add`. open: those, \
            and any other issuer with collateral in the vault's snapshot this wallet last \
            synced (`tender sync`), locked past the coin's expiry, up to that collateral minus \
            what the wallet already holds of that issuer.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "trusted or open; without it, the current mode is shown.")
    var mode: AcceptanceMode?

    func run() throws {
        try guarded {
            let wallets = try global.host.openWallets()
            if let mode { for wallet in wallets.all { try wallet.setAcceptanceMode(mode) } }
            let wallet = wallets.home
            let current = try wallet.acceptanceMode()
            let snapshot = try wallet.collateral()
            if output.json {
                try printJSON([
                    "mode": current.rawValue,
                    "snapshot": snapshot.map {
                        [
                            "block": $0.block, "takenAt": $0.takenAt,
                            "issuers": Set($0.collateral.keys.map(\.issuer)).count,
                        ] as [String: Any]
                    } ?? NSNull(),
                ])
                return
            }
            print(
                "Accepting: \(current == .open ? "trusted issuers, and others up to their collateral" : "trusted issuers only")"
            )
            if current == .open {
                print(
                    snapshot.map {
                        "Collateral snapshot: block \($0.block), read \(UTCTime.format($0.takenAt)), \(Set($0.collateral.keys.map(\.issuer)).count) issuer(s)"
                    }
                        ?? "No collateral snapshot yet: `tender sync` reads one (until then, trusted issuers only)"
                )
            }
        }
    }
}

extension AcceptanceMode: ExpressibleByArgument {}
