import ArgumentParser
import CashuMint
import CashuStore
import CashuWallet
import Codecs
import Foundation
import NodeHost
import NodeKit
import PaymentCodes
import Secp256k1
import Tender

struct CashuCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cashu",
        abstract: "Cashu ecash: take tokens offline, swap them at their mint, give tokens.",
        discussion: """
            A Cashu token (cashuA…, cashuB…) is taken with nothing online when the wallet \
            holds its mint's keys (`tender cashu mint add`, once, online): every proof is \
            checked against them (its DLEQ proof shows the mint signed it, NUT-12). Until it \
            is swapped at the mint (`tender cashu sync`) the payer could still spend it \
            elsewhere: a token locked to this wallet's key (`tender cashu key`) cannot be. \
            See Docs/CASHU.md.

            Examples:
              tender cashu mint add https://mint.example
              tender cashu receive cashuBo2F0…
              tender cashu sync
              tender cashu send 100 --mint https://mint.example --out token.txt
            """,
        subcommands: [
            CashuMintCommand.self, CashuReceiveCommand.self, CashuSyncCommand.self,
            CashuBalanceCommand.self, CashuSendCommand.self, CashuHistoryCommand.self,
            CashuKeyCommand.self, CashuMeltCommand.self,
        ])
}

struct CashuMintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint",
        abstract: "The mints this wallet holds keys for; `mint AMOUNT` mints ecash for an invoice.",
        subcommands: [
            CashuMintAddCommand.self, CashuMintListCommand.self, CashuMintInvoiceCommand.self,
        ],
        defaultSubcommand: CashuMintInvoiceCommand.self)
}

struct CashuMintAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a mint: fetch its keys (online), each checked against its id.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The mint's URL.") var url: String

    func run() async throws {
        try await guarded {
            let wallet = try global.host.openCashu(signing: false)
            let mint = try checkedMint(url)
            let report = try await withMint(mint) { client in
                try await wallet.addMint(client, now: { global.clock.now() })
            }
            let keysets = try wallet.store.keysets(mint: mint)
            if output.json {
                try printJSON([
                    "mint": mint,
                    "keysets": keysets.map {
                        ["id": $0.idHex, "unit": $0.unit, "active": $0.active]
                    },
                ])
                return
            }
            print(
                "Mint \(mint): \(keysets.count) keyset(s), units \(Set(keysets.map(\.unit)).sorted().joined(separator: ", "))."
            )
            if let failure = report.failure { print("Note: \(failure)") }
        }
    }
}

struct CashuMintListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the mints.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallet = try global.host.openCashu(signing: false)
            let mints = try cashu { try wallet.store.mints() }
            if output.json {
                try printJSON(
                    mints.map {
                        ["mint": $0.url, "keysFetchedAt": $0.keysFetchedAt.map { Int($0) } as Any]
                    })
                return
            }
            if mints.isEmpty {
                print("No mints yet: add one with `tender cashu mint add URL` while online.")
            }
            for mint in mints {
                let fetched =
                    mint.keysFetchedAt.map { "keys fetched \(UTCTime.format($0))" } ?? "no keys yet"
                print("\(mint.url)  (\(fetched))")
            }
        }
    }
}
