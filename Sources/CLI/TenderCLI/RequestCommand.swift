import ArgumentParser
import DevTools
import Foundation
import NodeHost
import NodeKit
import PaymentCodes
import Printing
import QR
import Tender

/// Where a QR code goes.
enum CodeFormat: String, ExpressibleByArgument, CaseIterable {
    case terminal, png, svg, pdf, escpos

    /// Whether the format shows a title above the code (a sheet or a receipt slip).
    var showsTitle: Bool { self == .pdf || self == .escpos }

    /// Refuses a title that the chosen format would silently drop.
    static func checkTitle(_ title: String, format: CodeFormat) throws {
        guard title.isEmpty || format.showsTitle else {
            throw ValidationError(
                "--name is printed only on pdf and escpos output (and --printer); \(format.rawValue) shows the code alone"
            )
        }
    }
}

/// Printer choices shared by `request` and `print`.
struct PrinterOptions: ParsableArguments {
    @Option(
        help:
            "Send to a printer: a device (/dev/usb/lp0), tcp://HOST[:PORT] (raw, port 9100), or cups[:QUEUE] (ESC/POS through lp -o raw)."
    )
    var printer: String?

    @Option(
        name: .customLong("printer-profile"), help: "Printer: 58mm, 80mm or epson80 (native QR).")
    var printerProfile = "58mm"

    func sink() throws -> PrinterSink? {
        guard let printer else { return nil }
        if printer.hasPrefix("tcp://") {
            let rest = printer.dropFirst(6)
            let parts = rest.split(separator: ":", maxSplits: 1)
            guard let host = parts.first, !host.isEmpty else {
                throw ValidationError("--printer tcp://HOST[:PORT]: no host in '\(printer)'")
            }
            let port = parts.count == 2 ? UInt16(parts[1]) : 9100
            guard let port else { throw ValidationError("--printer: bad port in '\(printer)'") }
            return .network(host: String(host), port: port)
        }
        if printer == "cups" { return .cups(queue: nil) }
        if printer.hasPrefix("cups:") { return .cups(queue: String(printer.dropFirst(5))) }
        return .device(path: printer)
    }

    func profile() throws -> PrinterProfile {
        switch printerProfile {
        case "58mm": .generic58mm
        case "80mm": .generic80mm
        case "epson80": .epson80mm
        default: throw ValidationError("--printer-profile must be 58mm, 80mm or epson80")
        }
    }
}

/// `Wallet.longestRequestLifetime` at most (ten years).
func checkRequestLifetime(_ seconds: UInt64) throws {
    guard (1...Wallet.longestRequestLifetime).contains(seconds) else {
        throw ValidationError("--expires-in must be 1…315360000 seconds (ten years)")
    }
}

struct RequestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Ask to be paid: a payment request as a QR code (screen, file or printer).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var printing: PrinterOptions

    @Option(
        parsing: .unconditional,
        help:
            "Amount as people read it (2.50: at most the asset's decimals), or base units when the asset's decimals are not known."
    )
    var amount: String
    @Option(help: "Asset (the zero address is the native coin).")
    var asset: String = NodeDefaults.asset.checksummed
    @Option(help: "What the payment is for (at most 140 bytes).") var memo = ""
    @Option(name: .customLong("expires-in"), help: "Seconds the request stays payable.")
    var expiresIn: UInt64 = 900
    @Option(help: "How to show the code.") var qr: CodeFormat = .terminal
    @Option(help: "File for png, svg, pdf or escpos output.") var out: String?
    @Option(help: "The stall's name, printed above the code.") var name = ""
    @Flag(help: "Terminal output for a dark background.") var dark = false

    func validate() throws {
        try CodeFormat.checkTitle(name, format: printing.printer == nil ? qr : .escpos)
        try checkRequestLifetime(expiresIn)
    }

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            let units = try global.host.denominations(for: wallet)
            let assetAddress = try parseAddress(asset, option: "--asset")
            let value = try units.parse(amount, of: assetAddress)
            // Stored before it is shown: a payment naming it must then meet its terms.
            let request = try wallet.issueRequest(
                amount: value, asset: assetAddress, memo: memo,
                lifetime: expiresIn, now: global.clock.now())
            let uri = TenderURI.encode(request)
            let lines =
                [
                    units.format(value, of: request.asset),
                    "to \(wallet.address.checksummed)",
                ] + (memo.isEmpty ? [] : [memo])
            // With --json on a terminal, stdout is the JSON alone (the URI is in it).
            if !(output.json && qr == .terminal && printing.printer == nil) {
                try CodeOutput(
                    payload: Array(uri.utf8), format: printing.printer == nil ? qr : .escpos,
                    out: out, title: name.isEmpty ? "Pay with Tender" : name, lines: lines,
                    dark: dark, printing: printing
                ).write()
            }
            if output.json {
                try printJSON([
                    "uri": uri, "requestId": request.id.hex, "expiry": request.expiry,
                    "format": qr.rawValue,
                ])
            } else if qr != .terminal || printing.printer != nil {
                print(uri)
            }
        }
    }
}

/// Renders one code's payload in the chosen format to a file, stdout or a printer.
struct CodeOutput {
    let payload: [UInt8]
    let format: CodeFormat
    let out: String?
    let title: String
    let lines: [String]
    let dark: Bool
    let printing: PrinterOptions

    func write() throws {
        let matrix = try QREncoder.encode(payload, level: .medium)
        switch format {
        case .terminal:
            print(matrix.terminalText(inverted: dark))
            print(String(decoding: payload, as: UTF8.self))
        case .png:
            try FileIO.writeAtomically(PNG.encode(matrix.rasterize(scale: 8)), to: try file())
        case .svg:
            let svg = Array(matrix.svg().utf8)
            if let out { try FileIO.writeAtomically(svg, to: out) } else { print(matrix.svg()) }
        case .pdf:
            try FileIO.writeAtomically(
                PDFSheet.render(code: matrix, title: title, lines: lines), to: try file())
        case .escpos:
            let job = ESCPOS.job(
                payload: payload, matrix: matrix, profile: try printing.profile(), title: title,
                lines: lines)
            if let sink = try printing.sink() {
                try sink.send(job)
            } else {
                try FileIO.writeAtomically(job, to: try file())
            }
        }
    }

    private func file() throws -> String {
        guard let out else { throw ValidationError("--qr \(format.rawValue) needs --out FILE") }
        return out
    }
}
