import Foundation
import GRDB
import Tender

/// A stored note or transfer of a proof.
enum ProofItem {
    case note(SignedNote)
    case transfer(SignedTransfer)
}

/// Reads the items of a proof and the origins of coins (`WalletDatabase.proof(_:of:)`), with
/// its statements prepared once per proof.
struct ProofItemReader {
    /// More items than any proof the verifier accepts can reach: a store that gives more is
    /// corrupt, and the walk stops there.
    static let maximumItems = 100_000

    private let heldOrigin: Statement
    private let otherOrigin: Statement
    private let note: Statement
    private let transfer: Statement

    init(_ db: Database) throws {
        heldOrigin = try db.cachedStatement(
            sql: "SELECT origin FROM coins WHERE id = ? AND origin IS NOT NULL")
        otherOrigin = try db.cachedStatement(sql: "SELECT item FROM coin_origins WHERE coin = ?")
        note = try db.cachedStatement(sql: "SELECT body FROM notes WHERE digest = ?")
        transfer = try db.cachedStatement(sql: "SELECT body FROM transfers WHERE digest = ?")
    }

    /// The digest of the note or transfer that created `coin`: in the coin's own row if the
    /// wallet holds it, else in coin_origins.
    func origin(of coin: CoinID) throws -> Bytes32? {
        if let origin = try Bytes32.fetchOne(heldOrigin, arguments: [coin]) { return origin }
        return try Bytes32.fetchOne(otherOrigin, arguments: [coin])
    }

    func item(_ digest: Bytes32) throws -> ProofItem? {
        do {
            if let body = try Data.fetchOne(note, arguments: [digest]) {
                return .note(try SignedNote.decode(Array(body)))
            }
            if let body = try Data.fetchOne(transfer, arguments: [digest]) {
                return .transfer(try SignedTransfer.decode(Array(body)))
            }
            return nil
        } catch let error as ProtocolError {
            throw WalletStoreError(.corrupt("stored item \(digest.short): \(error)"))
        }
    }
}
