import ArgumentParser
import Foundation
import NodeHost
import NodeKit
import Tender

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
            for (index, stored) in try wallet.evidence().enumerated() {
                var item = describe(stored.evidence, domain: wallet.domain)
                item["foundAt"] = stored.foundAt
                if let out {
                    let path = "\(out)/evidence-\(index + 1).tender"
                    try FileIO.writeAtomically(stored.envelope, to: path, replacing: true)
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
            let (evidence, new) = try wallet.importEvidence(bytes, now: global.clock.now())
            if output.json {
                var item = describe(evidence, domain: wallet.domain)
                item["new"] = new
                try printJSON(item)
            } else {
                print(
                    "Evidence \(new ? "kept" : "already held"): coin \(evidence.coin.hex) spent twice by \(evidence.spender)"
                )
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
