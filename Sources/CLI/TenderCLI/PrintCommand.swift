import ArgumentParser
import DevTools
import Foundation
import NodeHost
import NodeKit
import PaymentCodes
import Tender

struct PrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract:
            "Print a static \"pay me\" code with the stall's name (the payer picks the amount).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var printing: PrinterOptions

    @Option(help: "The stall's name (at most 64 bytes).") var name: String
    @Option(help: "Asset to be paid in (the zero address is the native coin).")
    var asset: String = NodeDefaults.asset.checksummed
    @Option(help: "Output when not sent to a printer.") var qr: CodeFormat = .pdf
    @Option(help: "File for png, svg, pdf or escpos output.") var out: String?

    func validate() throws {
        // The name is in the code itself (`name=`), so every format carries it.
        if output.json, printing.printer == nil, qr == .terminal {
            throw ValidationError("--json goes with --qr png|svg|pdf|escpos or --printer")
        }
    }

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            let code: PayeeCode
            do {
                code = try PayeeCode(
                    payee: wallet.address, asset: try parseAddress(asset, option: "--asset"),
                    domain: wallet.domain, name: name)
            } catch let error as PaymentCodeError {
                throw ValidationError("--name \(error.message)")
            }
            let uri = TenderURI.encode(code)
            try CodeOutput(
                payload: Array(uri.utf8), format: printing.printer == nil ? qr : .escpos, out: out,
                title: name, lines: ["Pay with Tender", wallet.address.checksummed], dark: false,
                printing: printing
            ).write()
            if output.json {
                try printJSON([
                    "uri": uri, "format": printing.printer == nil ? qr.rawValue : "escpos",
                ])
            } else if qr != .terminal || printing.printer != nil {
                print(uri)
            }
        }
    }
}
