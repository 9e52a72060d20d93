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
            it back after --refund-after.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The amount in the unit (2.50 for usd, 100 for sat).") var amount: String
    @Option(help: "The mint's URL.") var mint: String
    @Option(help: "The unit.") var unit = "sat"
    @Option(help: "A note for the payee (not signed).") var memo: String?
    @Option(name: .customLong("lock-to"), help: "The payee's public key (33 bytes, hex).")
    var lockTo: String?
    @Option(
        name: .customLong("refund-after"), help: "Seconds until a locked token can be taken back.")
    var refundAfter: UInt64 = 7 * 24 * 3600
    @Option(help: "Write the token to this file (never over one) instead of printing it.") var out:
        String?

    func run() async throws {
        try await guarded {
            if let out, FileManager.default.fileExists(atPath: out) {
                throw NodeError(.exists("\(out) exists: the token is written to a new file only"))
            }
            let unit = self.unit.lowercased()
            let value: UInt64
            do { value = try CashuUnit.baseUnits(amount, unit: unit) } catch {
                throw NodeError(
                    .usage("amount: \((error as? PaymentCodeError)?.message ?? "\(error)")"))
            }
            let mint = try checkedMint(self.mint)
            let key = try lockTo.map { given in
                // Nutshell's wallet prints its key as `P2PK:…`.
                let hex = given.hasPrefix("P2PK:") ? String(given.dropFirst(5)) : given
                guard let key = try? PublicKey(serialized: Hex.decode(hex)), hex.count == 66 else {
                    throw NodeError(
                        .usage("--lock-to is not a 33-byte compressed public key in hex"))
                }
                return key
            }
            let payment: CashuPayment
            if key == nil,
                let offline = try? global.host.openCashu(signing: false).give(
                    value, unit: unit, mint: mint, memo: memo, now: global.clock.now())
            {
                payment = offline
            } else {
                let wallet = try global.host.openCashu(signing: true)
                let lock = try global.host.directory.lockForCashu()
                defer { withExtendedLifetime(lock) {} }
                payment = try await withMint(mint) { client in
                    try await wallet.give(
                        value, unit: unit, memo: memo, lockTo: key, refundAfter: refundAfter,
                        client: client,
                        now: { global.clock.now() })
                }
            }
            if let out {
                try FileIO.writeAtomically(
                    Array((payment.token + "\n").utf8), to: out, mode: 0o600, exclusive: true)
            }
            if output.json {
                try printJSON(cashuJSON(payment))
                return
            }
            if out == nil { print(payment.token) }
            FileHandle.standardError.write(
                Data(
                    "Sent \(CashuUnit.text(UInt128(payment.amount), unit: unit)) from \(mint) (payment \(payment.id))\(out.map { " to \($0)" } ?? "").\n"
                        .utf8))
        }
    }
}
