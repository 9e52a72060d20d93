import ArgumentParser
import Foundation
import NodeHost
import NodeKit
import PaymentCodes
import Tender

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read QR codes from a camera, image files or raw frames; say what they are.",
        discussion: """
            Animated codes (Tender binary frames or BC-UR) are assembled across frames; a \
            receiver can join mid-loop and miss frames. Raw frames come on stdin, e.g. \
            `ffmpeg -i clip.mp4 -f rawvideo -pix_fmt gray -s 640x480 - | tender scan --frames 640x480`. \
            Exit status 0 when a code was read, 66 when none was found.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var source: ScanSource
    @Option(help: "Write the payload's bytes to this file.") var out: String?

    func validate() throws { try source.check() }

    func run() throws {
        try guarded {
            // From the first code read to the whole payload: what an animated code took.
            let clock = ContinuousClock()
            var firstCode: ContinuousClock.Instant?
            let (found, framesScanned) = try source.firstPayload(events: { event in
                if case .progress = event, firstCode == nil { firstCode = clock.now }
                noteScanEvent(event)
            })
            let assembly = firstCode.map { clock.now - $0 } ?? .zero
            guard let payload = found else {
                note("tender: no code found (\(framesScanned) frame(s) scanned)")
                throw ExitCode(66)
            }
            if let out { try FileIO.writeAtomically(payload, to: out) }
            let code = ScannedCode.recognize(payload)
            // The clock is read here, not in PaymentCodes: whether an invoice or request has
            // expired is the scanner's moment, passed in.
            let now = global.clock.now()
            let explanation = code.explanation(now: now, units: units())
            if output.json {
                var result = code.report(now: now, units: units()).json
                result.merge([
                    "explanation": explanation, "payable": code.isPayableByTender,
                    "bytes": payload.count, "framesScanned": framesScanned,
                    "assemblySeconds": Self.seconds(assembly),
                ]) { _, plain in plain }
                if let text = String(validating: payload, as: UTF8.self) { result["text"] = text }
                if let out { result["file"] = out }
                try printJSON(result)
            } else {
                print(terminalSafe(explanation))
                if let held = heldForCode(code) { print(held) }
                if let text = String(validating: payload, as: UTF8.self), !text.isEmpty {
                    print(terminalSafe(text, keeping: ["\n", "\t"]))
                }
            }
        }
    }

    /// A duration in seconds, to the millisecond.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return (Double(seconds) * 1000 + (Double(attoseconds) / 1e15).rounded()) / 1000
    }

    /// What this wallet holds where the code asks to be paid (nil: no wallet here, or not a
    /// Tender code): "Tender can pay it" says the code is Tender's, not that this wallet can.
    private func heldForCode(_ code: ScannedCode) -> String? {
        let (domain, asset): (Domain, Address)
        switch code {
        case .tenderRequest(let request): (domain, asset) = (request.domain, request.asset)
        case .tenderPayee(let payee): (domain, asset) = (payee.domain, payee.asset)
        default: return nil
        }
        let host = global.host
        guard host.directory.exists, let wallets = try? host.openWallets() else { return nil }
        let now = global.clock.now()
        guard let wallet = wallets.all.first(where: { $0.domain == domain }),
            let spendable = (try? wallet.balances(now: now))?[asset]?.spendable, spendable > 0
        else {
            return
                "This wallet holds nothing spendable in that vault: the payee takes only its notes."
        }
        let amount = host.displayDenominations(for: wallet).format(spendable, of: asset)
        return "This wallet can spend \(amount) there."
    }

    /// How this node reads an asset on a chain, for a request's amount: a chain's coin as the
    /// registry names it (or as Tender knows it by chain id), a token as the home wallet read
    /// it at sync when the request is for its chain. Read only when a Tender amount is shown;
    /// only shown, so what cannot be read (no wallet here, a registry being edited) is base
    /// units rather than a failed scan.
    private func units() -> (Domain, Address) -> Denomination {
        { domain, asset in
            if asset == .zero {
                let registry = try? global.host.chainRegistry()
                return registry?.nativeCoin(chainID: domain.chainID, preferring: domain)
                    ?? NativeCoins.denomination(chainID: domain.chainID) ?? .baseUnits
            }
            guard let home = try? global.openWallet(), home.domain == domain else {
                return .baseUnits
            }
            return (try? home.tokenDenominations())?[asset] ?? .baseUnits
        }
    }
}
