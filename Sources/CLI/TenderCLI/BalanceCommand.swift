import ArgumentParser
import CashuStore
import Foundation
import NodeKit
import Tender

struct BalanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance",
        abstract:
            "Show spendable, expiring, expired, pending, in-doubt and unsettled amounts per asset.",
        discussion: """
            The home domain's first (`assets` in --json), then each other domain the node \
            holds coins in (`domains` in --json lists all of them). What was redeemed (paid \
            by the vault to this address on chain) and what is being redeemed show too, and the Cashu \
            wallet's balance when there is one (`cashu` in --json).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try guarded {
            let node = try global.host.openWallets()
            let wallets = node.all
            let now = global.clock.now()
            let balances = try wallets.map { wallet throws(NodeError) in
                try wallet.balances(now: now)
            }
            let cashu = try cashuBalances()
            if output.json {
                try printJSON([
                    "cashu": cashu.map(cashuBalanceJSON),
                    "address": node.home.address.checksummed,
                    "assets": Self.json(balances[0]),
                    "domains": zip(wallets, balances).map { wallet, balances in
                        [
                            "chainId": wallet.domain.chainID,
                            "vault": wallet.domain.vault.checksummed,
                            "assets": Self.json(balances),
                        ] as [String: Any]
                    },
                ])
                return
            }
            Swift.print("Wallet \(node.home.address)")
            for (index, (wallet, balances)) in zip(wallets, balances).enumerated() {
                if wallets.count > 1 {
                    print(
                        "\(index == 0 ? "Home: c" : "C")hain \(wallet.domain.chainID), vault \(wallet.domain.vault)"
                    )
                }
                Self.show(balances, try global.host.denominations(for: wallet))
            }
            if !cashu.isEmpty {
                print("Cashu ecash (tender cashu balance):")
                for balance in cashu { print("  " + cashuBalanceText(balance)) }
            }
        }
    }

    static func json(_ balances: [Address: Balance]) -> [[String: Any]] {
        balances.keys.sorted().map { asset in
            let balance = balances[asset]!
            return [
                "asset": asset.checksummed, "spendable": String(balance.spendable),
                "expiring": String(balance.expiring), "expired": String(balance.expired),
                "pending": String(balance.pending), "inDoubt": String(balance.inDoubt),
                "receivedUnsettled": String(balance.receivedUnsettled),
                "redeeming": String(balance.redeeming), "redeemed": String(balance.redeemed),
            ]
        }
    }

    /// Amounts as people read them (`2.50 USDC`), right-aligned per asset.
    /// The Cashu wallet's balances, when the folder has one (read only: nothing is unlocked).
    private func cashuBalances() throws(NodeError) -> [CashuBalance] {
        let path = global.host.directory.cashu
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        return try cashu {
            let store = try CashuDatabase(path: path)
            defer { try? store.close() }
            return try store.balances(now: global.clock.now())
        }
    }

    static func show(_ balances: [Address: Balance], _ denominations: Denominations) {
        let assets = balances.keys.sorted()
        if assets.isEmpty { Swift.print("No coins yet.") }
        for asset in assets {
            let balance = balances[asset]!
            let denomination = denominations[asset]
            Swift.print(
                asset == .zero
                    ? "Asset: native coin\(denomination.symbol.map { " (\($0))" } ?? "")"
                    : "Asset: \(denomination.symbol.map { "\($0), " } ?? "")\(asset)")
            var rows: [(String, Amount, String)] = [("spendable", balance.spendable, "")]
            if balance.expiring > 0 {
                rows.append(
                    ("expiring", balance.expiring, "  (too close to expiry to pay with; settle it)")
                )
            }
            if balance.expired > 0 { rows.append(("expired", balance.expired, "")) }
            rows += [
                ("pending", balance.pending, ""), ("in doubt", balance.inDoubt, ""),
                ("received, unsettled", balance.receivedUnsettled, ""),
            ]
            if balance.redeeming > 0 {
                rows.append(
                    (
                        "being redeemed", balance.redeeming,
                        "  (sent to the vault; the node's sync, or `tender sync`, follows it)"
                    ))
            }
            if balance.redeemed > 0 {
                rows.append(
                    (
                        "redeemed", balance.redeemed,
                        "  (paid to this address on chain: no longer offline money)"
                    ))
            }
            let numbers = rows.map { denomination.number($0.1) }
            let width = numbers.map(\.count).max() ?? 0
            let unit = denomination.symbol ?? "base units"
            for (row, number) in zip(rows, numbers) {
                let label = row.0.padding(toLength: 19, withPad: " ", startingAt: 0)
                let padded = String(repeating: " ", count: width - number.count) + number
                Swift.print("  \(label) \(padded) \(unit)\(row.2)")
            }
        }
    }
}
