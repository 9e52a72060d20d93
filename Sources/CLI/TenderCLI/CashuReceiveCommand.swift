import ArgumentParser
import Cashu
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

struct CashuReceiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive", abstract: "Take a Cashu token, offline.",
        discussion: """
            The token as text, a file holding it, - for standard input, or a code scanned \
            with --camera, --image or --frames (one code, or an animated one as Cashu \
            wallets show it: BC-UR, NUT-16). Refused whole, with nothing written, when any \
            proof fails a check (exit 65). Taken tokens are at risk until `tender cashu \
            sync` swaps them.

            Examples:
              tender cashu receive cashuBo2F0…
              tender cashu receive --camera /dev/video0
              tender cashu receive token.txt --require-lock
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The token (cashuA…/cashuB…), a file holding it, or - for standard input.")
    var token: String?
    @OptionGroup var source: ScanSource
    @Flag(help: "Refuse a token unless every proof is locked to this wallet's key.")
    var requireLock = false
    @Flag(
        help:
            "With the mint online: swap the token at once (takes tokens without DLEQ proofs, which cannot be checked offline)."
    )
    var online = false

    func run() async throws {
        try await guarded {
            let text = try tokenGiven()
            let payment: CashuPayment
            if online {
                payment = try await takeOnline(text)
            } else {
                payment = try global.host.openCashu(signing: false).receive(
                    text, now: global.clock.now(), requireLock: requireLock)
            }
            try reportCashuReceived(payment, json: output.json)
        }
    }

    /// Takes the token with its mint online and swaps it at once; a refusal by the mint (spent
    /// elsewhere, forged) is one here.
    private func takeOnline(_ text: String) async throws -> CashuPayment {
        let mint: String
        do {
            mint = try Cashu.Token.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)).mint
        } catch {
            throw NodeError(
                .refusedEcash(code: error.code, reason: error.ofToken))
        }
        let wallet = try global.host.openCashu(signing: true)
        let lock = try global.host.directory.waitForCashuLock()
        defer { withExtendedLifetime(lock) {} }
        let (payment, report) = try await withMint(mint) { client in
            try await wallet.receiveOnline(
                text, client: client, now: { global.clock.now() }, requireLock: requireLock)
        }
        if payment.refused >= payment.amount {
            throw NodeError(
                .refusedEcash(
                    code: "spent-elsewhere",
                    reason:
                        "the mint refused it: \(payment.refusal ?? "spent elsewhere")"))
        }
        if payment.refused > 0 {
            let refused = CashuUnit.text(UInt128(payment.refused), unit: payment.unit)
            let taken = CashuUnit.text(
                UInt128(payment.amount - payment.refused), unit: payment.unit)
            note(
                "tender: warning: the mint refused \(refused) of it (\(payment.refusal ?? "spent elsewhere")); \(taken) was taken"
            )
        }
        if let failure = report.failure, payment.state != .swapped {
            throw NodeError(
                .unavailable(failure),
                note: "the token is held, taken but not swapped; the next sync swaps it")
        }
        return payment
    }

    /// The token from the argument, or from the scan the options describe.
    private func tokenGiven() throws -> String {
        switch (token, source.isGiven) {
        case (let token?, false): return try tokenText(token)
        case (nil, true):
            try source.check()
            let cashu = Array("cashu".utf8)
            let (payload, frames) = try source.firstPayload { bytes in
                bytes.starts(with: cashu) || bytes.starts(with: Array("cashu:".utf8))
                    ? nil : "not a Cashu token"
            }
            guard let payload else {
                throw NodeError(.missing("no Cashu token found (\(frames) frame(s) scanned)"))
            }
            return String(decoding: payload, as: UTF8.self)
        default:
            throw ValidationError(
                "give the token, or one source to scan it from (--camera, --image, --frames)")
        }
    }
}

/// What `tender cashu receive` (and `tender receive` given a token) says of a token taken.
func reportCashuReceived(_ payment: CashuPayment, json: Bool) throws {
    if json {
        try printJSON(cashuJSON(payment))
        return
    }
    print(
        "Received \(CashuUnit.text(UInt128(payment.amount - payment.refused), unit: payment.unit)) from \(payment.mint) (payment \(payment.id))."
    )
    if payment.state == .swapped || payment.state == .partRefused {
        print("Swapped at the mint at once: the wallet's own now.")
    } else if payment.locked == payment.amount, let until = payment.lockedUntil {
        print(
            "Locked to this wallet until \(UTCTime.format(until)): no one else can spend it; swap it before then (`tender cashu sync`)."
        )
    } else if payment.locked == payment.amount {
        print("Locked to this wallet for good: no one else can spend it.")
    } else {
        print(
            "At risk until swapped: the payer could still spend it elsewhere. Swap it with `tender cashu sync` when online."
        )
    }
}
