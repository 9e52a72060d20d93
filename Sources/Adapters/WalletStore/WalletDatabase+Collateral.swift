import GRDB
import Tender

extension WalletDatabase {
    /// Replaces the stored snapshot with `snapshot`, in one transaction.
    public func saveCollateral(_ snapshot: CollateralSnapshot) throws {
        try transaction { db in
            try db.execute(sql: "DELETE FROM collateral")
            try db.execute(sql: "DELETE FROM collateral_locks")
            for (key, amount) in snapshot.collateral {
                try db.execute(
                    sql: "INSERT INTO collateral(issuer, asset, amount) VALUES (?, ?, ?)",
                    arguments: [key.issuer, key.asset, amount])
            }
            for (issuer, until) in snapshot.lockedUntil {
                try db.execute(
                    sql: "INSERT INTO collateral_locks(issuer, locked_until) VALUES (?, ?)",
                    arguments: [issuer, until.column])
            }
            try Self.setMeta(db, "collateral_block", String(snapshot.block))
            try Self.setMeta(db, "collateral_taken_at", String(snapshot.takenAt))
        }
    }

    /// The last snapshot saved, nil if none was.
    public func collateral() throws -> CollateralSnapshot? {
        try read { db in
            guard let block = try Self.meta(db, "collateral_block").flatMap(UInt64.init),
                let takenAt = try Self.meta(db, "collateral_taken_at").flatMap(UInt64.init)
            else { return nil }
            var collateral: [IssuerAsset: Amount] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM collateral") {
                let key = IssuerAsset(
                    issuer: try row.decode(Address.self, forColumn: "issuer"),
                    asset: try row.decode(Address.self, forColumn: "asset"))
                collateral[key] = try row.decode(UInt128.self, forColumn: "amount")
            }
            var locks: [Address: UInt64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM collateral_locks") {
                locks[try row.decode(Address.self, forColumn: "issuer")] = try row.seconds(
                    "locked_until")
            }
            return CollateralSnapshot(
                block: block, takenAt: takenAt, collateral: collateral, lockedUntil: locks)
        }
    }

    /// What the wallet holds unsettled per issuer and asset at `now`: coins it may still
    /// redeem (unspent and unexpired, reserved by a payment not handed over, or redeeming).
    public func exposure(now: UInt64) throws -> [IssuerAsset: Amount] {
        try read { db in
            var result: [IssuerAsset: Amount] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT issuer, asset, amount FROM coin_details
                    WHERE (state = ? AND expiry > ?) OR state IN (?, ?)
                    """,
                arguments: [CoinState.unspent, now.column, CoinState.reserved, CoinState.redeeming])
            while let row = try rows.next() {
                let key = IssuerAsset(
                    issuer: try row.decode(Address.self, forColumn: "issuer"),
                    asset: try row.decode(Address.self, forColumn: "asset"))
                let amount = try row.decode(UInt128.self, forColumn: "amount")
                let (sum, overflow) = result[key, default: 0].addingReportingOverflow(amount)
                result[key] = overflow ? .max : sum
            }
            return result
        }
    }

    public func acceptanceMode() throws -> AcceptanceMode {
        try read { db in
            try Self.meta(db, "acceptance_mode").flatMap(AcceptanceMode.init) ?? .trusted
        }
    }

    public func setAcceptanceMode(_ mode: AcceptanceMode) throws {
        try transaction { db in try Self.setMeta(db, "acceptance_mode", mode.rawValue) }
    }

    static func meta(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
    }

    static func setMeta(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
    }
}
