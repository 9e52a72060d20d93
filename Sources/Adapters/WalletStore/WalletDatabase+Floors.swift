import GRDB
import Tender

extension WalletDatabase {
    /// Meta keys of the floors: the prefix, then the asset's lowercase hex.
    private static let floorPrefix = "unrequested_floor:"

    /// The least a payment without a request of this wallet's must bring, per asset; an asset
    /// not listed has none.
    public func unrequestedFloors() throws -> [Address: Amount] {
        try read { db in
            var floors: [Address: Amount] = [:]
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM meta WHERE key LIKE ?",
                arguments: [Self.floorPrefix + "%"])
            for row in rows {
                let key: String = row["key"]
                let value: String = row["value"]
                guard let asset = try? Address(String(key.dropFirst(Self.floorPrefix.count))),
                    let amount = Amount(value)
                else { throw WalletStoreError(.corrupt("meta \(key) = \(value) is not a floor")) }
                floors[asset] = amount
            }
            return floors
        }
    }

    /// The meta key saying payments without a request in assets with no floor are refused.
    private static let unlistedKey = "unrequested_unlisted"

    /// Whether a payment without a request, in an asset with no floor, is refused.
    public func refusesUnlistedAssets() throws -> Bool {
        try read { db in try Self.meta(db, Self.unlistedKey) == "refuse" }
    }

    public func setRefusesUnlistedAssets(_ refuses: Bool) throws {
        try transaction { db in
            if refuses {
                try Self.setMeta(db, Self.unlistedKey, "refuse")
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.unlistedKey])
            }
        }
    }

    /// Sets the floor of `asset`; nil or zero removes it.
    public func setUnrequestedFloor(_ floor: Amount?, of asset: Address) throws {
        let key = Self.floorPrefix + asset.checksummed.lowercased()
        try transaction { db in
            if let floor, floor > 0 {
                try Self.setMeta(db, key, String(floor))
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
            }
        }
    }
}
