import Foundation
import GRDB
import Tender

// How protocol values are stored, in one place: GRDB encodes them as arguments and decodes
// them with its throwing accessors (`row.decode(Bytes32.self, forColumn: "id")`), so a row
// that does not hold what its column promises is an error, never a trap.

extension Bytes32: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { Data(bytes).databaseValue }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bytes32? {
        Data.fromDatabaseValue(value).flatMap { try? Bytes32(Array($0)) }
    }
}

extension Address: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { Data(bytes).databaseValue }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> Address? {
        Data.fromDatabaseValue(value).flatMap { try? Address(bytes: Array($0)) }
    }
}

/// Amounts: 16 bytes big-endian, so SQLite's memcmp order of BLOBs is numeric order (and
/// values past 2^63, where SQLite integers stop, fit).
extension UInt128: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        Data((0..<16).map { UInt8(truncatingIfNeeded: self >> (8 * (15 - $0))) }).databaseValue
    }

    public static func fromDatabaseValue(_ value: DatabaseValue) -> UInt128? {
        guard let data = Data.fromDatabaseValue(value), data.count == 16 else { return nil }
        return data.reduce(0) { $0 << 8 | UInt128($1) }
    }
}

extension CoinState: DatabaseValueConvertible {}
extension RedeemTransactionState: DatabaseValueConvertible {}
extension CoinSource: DatabaseValueConvertible {}
extension OutgoingPaymentState: DatabaseValueConvertible {}

/// Unix seconds, stored as INTEGER.
extension UInt64 {
    var column: Int64 { Int64(clamping: self) }
}

extension Row {
    /// Unix seconds from an INTEGER column.
    func seconds(_ column: String) throws -> UInt64 {
        UInt64(clamping: try decode(Int64.self, forColumn: column))
    }
}

extension Database {
    /// Applies `transition` to the coins `condition` selects (SQL with `?` placeholders for
    /// `arguments`), only those in one of its starting states, also setting `also` (e.g.
    /// `reserved_by = ?`, its arguments first in `arguments`); returns how many moved.
    @discardableResult
    func move(
        coins condition: String, _ arguments: StatementArguments, by transition: CoinTransition,
        also: String? = nil, now: UInt64
    ) throws -> Int {
        let from = transition.from.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        let set = also.map { ", \($0)" } ?? ""
        try cachedStatement(
            sql:
                "UPDATE coins SET state = ?, updated_at = ?\(set) WHERE state IN (\(from)) AND \(condition)"
        ).execute(arguments: [transition.to, now.column] + arguments)
        return changesCount
    }
}
