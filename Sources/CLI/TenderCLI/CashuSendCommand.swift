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

struct CashuSendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Give a Cashu token from this wallet's own proofs.",
        discussion: """
            Offline when the proofs held make the amount exactly; otherwise (or with \
            --lock-to) the proofs are split at the mint first, which needs it online. With \
            --lock-to only that key can spend the token (NUT-11), and this wallet can take \
            it back after --refund-after. With --request, a Cashu payment request (NUT-18 \
            creqA…, NUT-26 creqb1…) sets the amount, the unit, the mint (the first it lists \
            that this wallet holds) and the lock; the token is handed over in-band: printed, \
            shown with --qr, or written with --out. `tender pay --cashu` does the same.

            Examples:
              tender cashu send 21 --mint https://mint.example.com
              tender cashu send --request creqA… --qr
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The amount in the unit (2.50 for usd, 100 for sat).") var amount: String?
    @Option(help: "The mint's URL (with --request: one it lists).") var mint: String?
    @Option(help: "The unit.") var unit = "sat"
    @Option(help: "A note for the payee (not signed).") var memo: String?
    @Option(name: .customLong("lock-to"), help: "The payee's public key (33 bytes, hex).")
    var lockTo: String?
    @Option(
        help:
            "A Cashu payment request (creqA…, NUT-18; creqb1…, NUT-26): its amount, unit, mints and lock."
    )
    var request: String?
    @Option(
        name: .customLong("refund-after"), help: "Seconds until a locked token can be taken back.")
    var refundAfter: UInt64 = 7 * 24 * 3600
    @Option(help: "Write the token to this file (never over one) instead of printing it.") var out:
        String?
    @Flag(help: "Show the token as a code on this terminal (when it fits one).") var qr = false
    @Flag(help: "With --qr: a dark terminal.") var dark = false

    func validate() throws {
        if request != nil {
            guard lockTo == nil else {
                throw ValidationError("--request sets the lock: drop --lock-to")
            }
        } else {
            guard amount != nil else { throw ValidationError("give an amount, or --request") }
            guard mint != nil else { throw ValidationError("give --mint URL") }
        }
    }

    func run() async throws {
        try await guarded {
            try await handOver(
                try terms(), host: global.host, clock: global.clock, refundAfter: refundAfter,
                out: out, qr: qr, dark: dark, json: output.json)
        }
    }

    private func terms() throws(NodeError) -> CashuGiveTerms {
        if let request {
            return try CashuGiveTerms.from(
                request: request, mint: mint, amount: amount, on: global.host)
        }
        return try CashuGiveTerms.given(
            amount: amount ?? "", unit: unit, mint: mint ?? "", memo: memo, lockTo: lockTo)
    }
}

/// Gives the token `terms` set and hands it over: to `out` (a new file), as a code on this
/// terminal, or printed; said on standard error (or as JSON).
@discardableResult
func handOver(
    _ terms: CashuGiveTerms, host: NodeHost, clock: any WallClock, refundAfter: UInt64,
    out: String?, qr: Bool, dark: Bool, json: Bool
) async throws -> CashuPayment {
    if let out, FileManager.default.fileExists(atPath: out) {
        throw NodeError(.exists("\(out) exists: the token is written to a new file only"))
    }
    let payment = try await terms.give(
        on: host, refundAfter: refundAfter, now: { clock.now() })
    if let out {
        try FileIO.writeAtomically(
            Array((payment.token + "\n").utf8), to: out, mode: 0o600, exclusive: true)
    }
    if json {
        try printJSON(cashuJSON(payment))
        return payment
    }
    if qr {
        try showCashuToken(payment.token, dark: dark)
    } else if out == nil {
        print(payment.token)
    }
    let locked =
        terms.lockTo.map {
            ", locked to \(Hex.encode($0.compressed, prefix: false).prefix(12))…"
        } ?? ""
    FileHandle.standardError.write(
        Data(
            "Sent \(CashuUnit.text(UInt128(payment.amount), unit: terms.unit)) from \(terms.mint)\(locked) (payment \(payment.id))\(out.map { " to \($0)" } ?? "").\n"
                .utf8))
    return payment
}
