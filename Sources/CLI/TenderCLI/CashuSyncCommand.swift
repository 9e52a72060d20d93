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

struct CashuSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Swap the tokens taken offline at their mints (online).",
        discussion: """
            For each mint with tokens taken and not swapped (or --mint): its keys are fetched \
            again, a swap cut short earlier is finished from the mint's records, and every \
            proof taken offline is swapped for fresh ones. A proof the mint says was spent \
            before is kept as refused, with its token as evidence.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this mint.") var mint: String?

    func run() async throws {
        try await guarded {
            let wallet = try global.host.openCashu(signing: true)
            let lock = try global.host.directory.waitForCashuLock()
            defer { withExtendedLifetime(lock) {} }
            let mints = try cashu {
                try mint.map { [try checkedMint($0)] } ?? wallet.mintsToSettle()
            }
            var reports: [CashuSettlement] = []
            for url in mints {
                reports.append(
                    try await withMint(url) { client in
                        await wallet.settle(with: client, now: { global.clock.now() })
                    })
            }
            let failed = reports.contains { $0.failure != nil }
            if output.json {
                try printJSON(
                    reports.map { report in
                        [
                            "mint": report.mint,
                            "swapped": report.swapped.mapValues { Int($0) },
                            "refused": report.refused.mapValues { Int($0) },
                            "recovered": report.recovered, "failure": report.failure as Any,
                        ]
                    })
                if failed { throw ExitCode(Failure.unavailable) }
                return
            }
            if reports.isEmpty { print("Nothing to swap.") }
            for report in reports {
                print(
                    report.headline(evidence: "kept as evidence: `tender cashu history --json`")
                        + ".")
                if let failure = report.failure {
                    print(
                        "  not finished: \(failure) (what is left is tried again at the next sync)")
                }
            }
            if reports.contains(where: { $0.failure != nil }) {
                throw ExitCode(Failure.unavailable)
            }
        }
    }
}
