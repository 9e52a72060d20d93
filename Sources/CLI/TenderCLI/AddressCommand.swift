import ArgumentParser
import Foundation
import NodeKit
import Tender

struct AddressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "address", abstract: "Print this wallet's address.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            if output.json {
                try printJSON([
                    "address": wallet.address.checksummed, "chainId": String(wallet.domain.chainID),
                    "vault": wallet.domain.vault.checksummed,
                ])
            } else {
                print(wallet.address.checksummed)
            }
        }
    }
}
