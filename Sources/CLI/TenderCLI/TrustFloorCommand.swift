import ArgumentParser
import Foundation
import NodeKit
import Tender

struct TrustFloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor",
        abstract: "Show or set the least a payment this wallet did not ask for must bring.",
        discussion: """
            A payment for one of this wallet's requests is taken at its amount. Any other \
            payment (one a payer made up, as a camera or Bluetooth payee takes them, or \
            issued notes) below the floor of its asset is refused (below-floor), before its \
            signatures are checked. Each asset has its own floor; none is set at first. \
            --off removes the asset's floor. --unlisted refuse also refuses such payments in \
            every asset without a floor (a stranger's token, whose coins would cost gas to \
            redeem); --unlisted take undoes it. The floors hold for every chain and vault \
            of this node.
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(
        help:
            "The floor, as people read it (0.001), or base units when the asset's decimals are not known; without it, the floors are shown."
    )
    var amount: String?
    @Option(help: "Asset (the zero address is the native coin).")
    var asset: String = Address.zero.checksummed
    @Flag(help: "Remove the asset's floor.") var off = false
    @Option(help: "Payments without a request in assets without a floor: refuse or take.")
    var unlisted: UnlistedAssets?

    enum UnlistedAssets: String, ExpressibleByArgument, CaseIterable { case refuse, take }

    func validate() throws {
        if off && amount != nil { throw ValidationError("give an amount or --off, not both") }
    }

    func run() throws {
        try guarded {
            let wallets = try global.host.openWallets()
            let home = wallets.home
            let units = try global.host.denominations(for: home)
            let assetAddress = try parseAddress(asset, option: "--asset")
            if let amount {
                guard amount.trimmingCharacters(in: .whitespaces) != "0" else {
                    throw NodeError(.usage("a floor must be more than zero (--off removes one)"))
                }
                let floor = try units.parse(amount, of: assetAddress, field: "the floor")
                // The node's floor, so every wallet of it (one per domain) keeps the same.
                for wallet in wallets.all {
                    try wallet.setUnrequestedFloor(floor, of: assetAddress)
                }
            } else if off {
                guard try home.unrequestedFloors()[assetAddress] != nil else {
                    throw NodeError(.missing("asset \(assetAddress) has no floor; nothing changed"))
                }
                for wallet in wallets.all { try wallet.setUnrequestedFloor(nil, of: assetAddress) }
            }
            if let unlisted {
                for wallet in wallets.all {
                    try wallet.setRefusesUnlistedAssets(unlisted == .refuse)
                }
            }
            let floors = try home.unrequestedFloors().sorted { $0.key < $1.key }
            let refusesUnlisted = try home.refusesUnlistedAssets()
            if output.json {
                try printJSON([
                    "floors": floors.map {
                        [
                            "asset": $0.key.checksummed, "amount": String($0.value),
                            "shown": units.format($0.value, of: $0.key),
                        ]
                    },
                    "unlisted": refusesUnlisted ? "refuse" : "take",
                ])
                return
            }
            for (asset, floor) in floors {
                print(
                    "Refusing payments without a request below \(units.format(floor, of: asset)) (asset \(asset))"
                )
            }
            print(
                refusesUnlisted
                    ? "Refusing payments without a request in any other asset"
                    : floors.isEmpty
                        ? "No floor: payments without a request are taken at any amount (tender trust floor 0.001 sets one)"
                        : "Taking payments without a request in any other asset at any amount (--unlisted refuse refuses them)"
            )
        }
    }
}
