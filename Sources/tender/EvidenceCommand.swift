import ArgumentParser
import Codecs
import Foundation
import NodeKit
import Tender
import WalletStore

struct EvidenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evidence", abstract: "Double-spend proofs: list those found, import others.",
        subcommands: [EvidenceListCommand.self, EvidenceImportCommand.self],
        defaultSubcommand: EvidenceListCommand.self)
}

struct EvidenceListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the double-spend proofs this wallet holds.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Also write each proof as a file into this directory.") var out: String?

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            var items: [[String: Any]] = []
            for (index, stored) in try wallet.store.evidenceBodies().enumerated() {
                let envelope = try wallet.decode(stored.body)
                guard case .evidence(let evidence) = envelope.message else { continue }
                var item = describe(evidence, domain: wallet.domain)
                item["foundAt"] = stored.foundAt
                if let out {
                    let path = "\(out)/evidence-\(index + 1).tender"
                    try FileIO.writeAtomically(stored.body, to: path)
                    item["file"] = path
                }
                items.append(item)
            }
            if output.json {
                try printJSON(["evidence": items])
            } else {
                if items.isEmpty { print("No double spends seen.") }
                for item in items {
                    print("coin \(item["coin"]!) spent twice by \(item["spender"]!)")
                    print("  transfers \(item["first"]!) and \(item["second"]!)")
                }
            }
        }
    }
}

struct EvidenceImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Check double-spend evidence from a peer or a file and keep it.",
        discussion: """
            Kept only when it concerns a coin this wallet has met (held, seen spent, or in a \
            stored proof); anything else is refused and changes nothing.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The evidence file.") var file: String

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            let bytes = try FileIO.read(file, limit: Envelope.maxBytes)
            let evidence = try wallet.importEvidence(bytes, now: global.clock.now())
            if output.json {
                try printJSON(describe(evidence, domain: wallet.domain))
            } else {
                print("Evidence kept: coin \(evidence.coin.hex) spent twice by \(evidence.spender)")
            }
        }
    }
}

private func describe(_ evidence: DoubleSpendEvidence, domain: Domain) -> [String: Any] {
    [
        "coin": evidence.coin.hex, "spender": evidence.spender.checksummed,
        "first": evidence.first.transfer.digest(in: domain).hex,
        "second": evidence.second.transfer.digest(in: domain).hex,
    ]
}
