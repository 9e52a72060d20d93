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

struct CashuBalanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance", abstract: "What is held at each mint: spendable, at risk, swapping."
    )
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallet = try global.host.openCashu(signing: false)
            let balances = try cashu { try wallet.store.balances(now: global.clock.now()) }
            if output.json {
                try printJSON(balances.map(cashuBalanceJSON))
                return
            }
            if balances.isEmpty { print("No Cashu held.") }
            for balance in balances { print(cashuBalanceText(balance)) }
        }
    }
}

struct CashuHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Tokens taken and given, and what became of them.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallet = try global.host.openCashu(signing: false)
            let payments = try cashu { try wallet.store.payments() }
            if output.json {
                try printJSON(payments.map(cashuJSON))
                return
            }
            if payments.isEmpty { print("No Cashu payments yet.") }
            let now = global.clock.now()
            for payment in payments {
                let amount = CashuUnit.text(UInt128(payment.amount), unit: payment.unit)
                var line = "\(payment.id)  \(UTCTime.format(payment.createdAt))  "
                line += payment.direction == .incoming ? "in  " : "out "
                line += "\(amount)  \(payment.mint)  \(payment.state.rawValue)"
                // Only while the proofs are still held as taken: once swapped, a lock is moot.
                if payment.locked > 0 && payment.direction == .incoming
                    && [.received, .swapping].contains(payment.state)
                {
                    switch payment.lockedUntil {
                    case let until? where until <= now:
                        line += " (its lock to this wallet ended \(UTCTime.format(until)): at risk)"
                    case let until?:
                        line += " (locked to this wallet until \(UTCTime.format(until)))"
                    case nil: line += " (locked to this wallet)"
                    }
                }
                if payment.refused > 0 {
                    line +=
                        " (\(CashuUnit.text(UInt128(payment.refused), unit: payment.unit)) refused: \(payment.refusal ?? "spent elsewhere"))"
                }
                print(line)
            }
        }
    }
}

struct CashuKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "The public key payers lock tokens to (NUT-11 P2PK).")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallet = try global.host.openCashu(signing: false)
            let key = Hex.encode(wallet.lockPublicKey.compressed, prefix: false)
            if output.json {
                try printJSON(["key": key])
                return
            }
            print(key)
        }
    }
}
