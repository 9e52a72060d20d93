import ArgumentParser
import Codecs
import Foundation
import NodeKit
import Tender
import WalletStore

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode any Tender file and show its signed structs as EIP-712 typed data.")

    @OptionGroup var output: OutputOptions
    @Argument(help: "A Tender file (binary, or hex text).") var file: String

    func run() throws {
        try guarded {
            var bytes = try FileIO.read(file, limit: 2 * Envelope.maxBytes)
            if let text = String(bytes: bytes, encoding: .utf8),
                let decoded = try? Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                bytes = decoded
            }
            let decoded = Result { () throws(ProtocolError) in try Envelope.decode(bytes) }
            let envelope = try decoded.mapError { NodeError(.rejected($0)) }.get()
            let description = Inspection.describe(envelope)
            if output.json {
                try printJSON(description)
            } else {
                printText(description, indent: "")
            }
        }
    }

    private func printText(_ value: Any, indent: String) {
        if let dictionary = value as? [String: Any] {
            for key in dictionary.keys.sorted() {
                let item = dictionary[key]!
                if item is [String: Any] || item is [Any] {
                    print("\(indent)\(key):")
                    printText(item, indent: indent + "  ")
                } else {
                    print("\(indent)\(key): \(terminalSafe("\(item)"))")
                }
            }
        } else if let array = value as? [Any] {
            for (index, item) in array.enumerated() {
                print("\(indent)[\(index)]")
                printText(item, indent: indent + "  ")
            }
        } else {
            print("\(indent)\(terminalSafe("\(value)"))")
        }
    }
}
