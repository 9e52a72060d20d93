import Foundation
import GRDB
import Tender

/// A request this wallet issued, as stored: the terms a payment naming it must meet.
public struct StoredRequest: Sendable, Equatable {
    public let id: Bytes32
    public let asset: Address
    public let amount: Amount
    public let memo: String
    public let expiry: UInt64

    public init(id: Bytes32, asset: Address, amount: Amount, memo: String, expiry: UInt64) {
        self.id = id
        self.asset = asset
        self.amount = amount
        self.memo = memo
        self.expiry = expiry
    }
}

extension WalletDatabase {
    /// Records a request this wallet shows to payers (one transaction). Request ids are
    /// random; the same id twice is refused rather than changing the terms of a shown code.
    public func recordRequest(_ request: StoredRequest, now: UInt64) throws {
        try transaction { db in
            guard try Self.storedRequest(db, request.id) == nil else {
                throw WalletStoreError(
                    .rejected(ProtocolError(.malformed("request id \(request.id.hex) is in use"))))
            }
            try db.execute(
                sql: """
                    INSERT INTO requests (id, asset, amount, memo, expiry, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    request.id, request.asset, request.amount, request.memo,
                    request.expiry.column, now.column,
                ])
        }
    }

    /// The request with this id, if this wallet issued it.
    public func request(_ id: Bytes32) throws -> StoredRequest? {
        try read { db in try Self.storedRequest(db, id) }
    }

    static func storedRequest(_ db: Database, _ id: Bytes32) throws -> StoredRequest? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM requests WHERE id = ?", arguments: [id])
        else { return nil }
        return StoredRequest(
            id: try row.decode(Bytes32.self, forColumn: "id"),
            asset: try row.decode(Address.self, forColumn: "asset"),
            amount: try row.decode(UInt128.self, forColumn: "amount"),
            memo: try row.decode(String.self, forColumn: "memo"),
            expiry: try row.seconds("expiry"))
    }
}
