import GRDB
import Tender

extension WalletDatabase {
    /// Records a token's symbol and decimals as its contract answered, replacing any before.
    public func saveDenomination(
        _ denomination: Denomination, of asset: Address, readAt: UInt64
    )
        throws
    {
        guard let symbol = denomination.symbol else { return }
        try transaction { db in
            try db.execute(
                sql: """
                    INSERT INTO assets(asset, symbol, decimals, read_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(asset) DO UPDATE SET
                        symbol = excluded.symbol, decimals = excluded.decimals,
                        read_at = excluded.read_at
                    """,
                arguments: [asset, symbol, denomination.decimals, readAt.column])
        }
    }

    /// Every token whose symbol and decimals were read. A row that no longer makes a
    /// denomination (edited by hand) is left out: its amounts show in base units.
    public func denominations() throws -> [Address: Denomination] {
        try read { db in
            var result: [Address: Denomination] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT asset, symbol, decimals FROM assets") {
                let asset = try row.decode(Address.self, forColumn: "asset")
                let symbol: String = row["symbol"]
                let decimals: Int = row["decimals"]
                result[asset] = try? Denomination(symbol: symbol, decimals: decimals)
            }
            return result
        }
    }
}
