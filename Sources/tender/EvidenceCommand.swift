import ArgumentParser
import Codecs
import Foundation
import NodeKit
import Tender
import WalletStore

struct EvidenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evidence", abstract: "List the double-spend proofs this wallet has found.")

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
                var item: [String: Any] = [
                    "coin": evidence.coin.hex, "spender": evidence.spender.checksummed,
                    "first": evidence.first.transfer.digest(in: wallet.domain).hex,
                    "second": evidence.second.transfer.digest(in: wallet.domain).hex,
                    "foundAt": stored.foundAt,
                ]
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
