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

struct CashuReceiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive", abstract: "Take a Cashu token, offline.",
        discussion: """
            The token as text, a file holding it, or - for standard input. Refused whole, \
            with nothing written, when any proof fails a check (exit 65). Taken tokens are \
            at risk until `tender cashu sync` swaps them.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The token (cashuA…/cashuB…), a file holding it, or - for standard input.")
    var token: String
    @Flag(help: "Refuse a token unless every proof is locked to this wallet's key.")
    var requireLock = false

    func run() throws {
        try guarded {
            let text = try tokenText(token)
            let wallet = try global.host.openCashu(signing: false)
            let payment = try wallet.receive(
                text, now: global.clock.now(), requireLock: requireLock)
            if output.json {
                try printJSON(cashuJSON(payment))
                return
            }
            print(
                "Received \(CashuUnit.text(UInt128(payment.amount), unit: payment.unit)) from \(payment.mint) (payment \(payment.id))."
            )
            if let until = payment.lockedUntil {
                print(
                    "Locked to this wallet until \(UTCTime.format(until)): swap it before then (`tender cashu sync`)."
                )
            } else {
                print(
                    "At risk until swapped: the payer could still spend it elsewhere. Swap it with `tender cashu sync` when online."
                )
            }
        }
    }
}
