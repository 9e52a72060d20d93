import ArgumentParser
import Foundation
import NodeHost
import NodeKit
import Tender

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode any Tender file: a summary, and its signed structs as EIP-712 typed data."
    )

    @OptionGroup var output: OutputOptions
    @Flag(help: "Also print every signed struct as EIP-712 typed data (as --json does).")
    var verbose = false
    @Argument(help: "A Tender file (binary, or hex text).") var file: String

    func run() throws {
        try guarded {
            let bytes = try FileIO.read(file, limit: 2 * Envelope.maxBytes)
            let envelope = try Inspection.envelope(fromFile: bytes)
            if output.json {
                try printJSON(Inspection.describe(envelope))
                return
            }
            Inspection.summary(envelope).forEach { print(terminalSafe($0)) }
            if verbose {
                print("")
                printText(Inspection.describe(envelope), indent: "")
            } else {
                print("(--verbose for every signed struct as EIP-712 typed data)")
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
