import ArgumentParser
import NodeKit
import Tender

struct TrustFloorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor",
        abstract: "Show or set the least a payment this wallet did not ask for must bring.",
        discussion: """
            A payment for one of this wallet's requests is taken at its amount. Any other \
            payment (one a payer made up, as a camera or Bluetooth payee takes them, or \
            issued notes) below the floor of its asset is refused with below-floor, before \
            its signatures are checked. Each asset has its own floor; none is set at first. \
            `--off` removes the asset's floor.
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

    func validate() throws {
        if off && amount != nil { throw ValidationError("give an amount or --off, not both") }
    }

    func run() throws {
        try guarded {
            let wallets = try global.host.openWallets()
            let units = try global.host.denominations(for: wallets.home)
            let assetAddress = try parseAddress(asset, option: "--asset")
            if off || amount != nil {
                let floor = try amount.map { text throws(NodeError) in
                    try units.parse(text, of: assetAddress)
                }
                // The node's floor, so every wallet of it (one per domain) keeps the same.
                for wallet in wallets.all {
                    try wallet.setUnrequestedFloor(floor, of: assetAddress)
                }
            }
            let floors = try wallets.home.unrequestedFloors().sorted { $0.key < $1.key }
            if output.json {
                try printJSON([
                    "floors": floors.map {
                        [
                            "asset": $0.key.checksummed, "amount": String($0.value),
                            "shown": units.format($0.value, of: $0.key),
                        ]
                    }
                ])
                return
            }
            if floors.isEmpty {
                print("No floor: payments without a request are taken at any amount.")
            }
            for (asset, floor) in floors {
                print(
                    "Payments without a request of at least \(units.format(floor, of: asset)) (asset \(asset))"
                )
            }
        }
    }
}
