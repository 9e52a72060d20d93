import ArgumentParser
import NodeKit
import Tender

struct BalanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance",
        abstract:
            "Show spendable, expiring, expired, pending, in-doubt and unsettled amounts per asset.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let wallet = try global.openWallet()
            let balances = try wallet.balances(now: global.clock.now())
            let assets = balances.keys.sorted()
            if output.json {
                try printJSON([
                    "address": wallet.address.checksummed,
                    "assets": assets.map { asset -> [String: Any] in
                        let balance = balances[asset]!
                        return [
                            "asset": asset.checksummed, "spendable": String(balance.spendable),
                            "expiring": String(balance.expiring),
                            "expired": String(balance.expired),
                            "pending": String(balance.pending), "inDoubt": String(balance.inDoubt),
                            "receivedUnsettled": String(balance.receivedUnsettled),
                        ]
                    },
                ])
                return
            }
            print("Wallet \(wallet.address)")
            if assets.isEmpty { print("No coins yet.") }
            for asset in assets {
                let balance = balances[asset]!
                print(asset == .zero ? "Asset: native coin" : "Asset: \(asset)")
                print("  spendable           \(balance.spendable)")
                if balance.expiring > 0 {
                    print(
                        "  expiring            \(balance.expiring)  (too close to expiry to pay with; settle it)"
                    )
                }
                if balance.expired > 0 { print("  expired             \(balance.expired)") }
                print("  pending             \(balance.pending)")
                print("  in doubt            \(balance.inDoubt)")
                print("  received, unsettled \(balance.receivedUnsettled)")
            }
        }
    }
}
