import Foundation
import GRDB
import Tender

// Conversions between protocol values and column values, in one place.

extension Bytes32 {
    var data: Data { Data(bytes) }

    init(column value: Data?) throws(WalletStoreError) {
        guard let value, let result = try? Bytes32(Array(value)) else {
            throw WalletStoreError(.corrupt("expected a 32-byte value"))
        }
        self = result
    }
}

extension Address {
    var data: Data { Data(bytes) }

    init(column value: Data?) throws(WalletStoreError) {
        guard let value, let result = try? Address(bytes: Array(value)) else {
            throw WalletStoreError(.corrupt("expected a 20-byte address"))
        }
        self = result
    }
}

extension UInt128 {
    /// 16 bytes big-endian: SQLite compares BLOBs with memcmp, so this sorts numerically.
    var column: Data {
        Data((0..<16).map { UInt8(truncatingIfNeeded: self >> (8 * (15 - $0))) })
    }

    init(column value: Data?) throws(WalletStoreError) {
        guard let value, value.count == 16 else {
            throw WalletStoreError(.corrupt("expected a 16-byte amount"))
        }
        self = value.reduce(0) { $0 << 8 | UInt128($1) }
    }
}

extension Row {
    func blob(_ column: String) -> Data? { self[column] }
}

/// Unix seconds, stored as INTEGER.
extension UInt64 {
    var column: Int64 { Int64(clamping: self) }
}
