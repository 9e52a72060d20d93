import Foundation
import GRDB

/// What a Cashu wallet knows that an older copy of it does not: restoring the copy would
/// forget each of these.
public struct CashuLead: Sendable, Equatable {
    /// Tokens taken or given since the copy, and Lightning quotes (mint, melt) asked or moved
    /// on since (the copy would forget an invoice paid, or a melt's inputs and change).
    public var payments = 0
    /// Proofs the copy holds as spendable or taken that were given, swapped or refused since
    /// (the copy would give them again, and the payee's mint would refuse them), and proofs
    /// held now that the copy lacks (a swap's fresh ones: the copy would lose them).
    public var proofs = 0

    public init() {}

    public var isEmpty: Bool { payments == 0 && proofs == 0 }
}

extension CashuDatabase {
    /// `current`'s lead over `copy` (a copy of it from a backup, or nil when the backup has
    /// none: then everything `current` holds is its lead).
    public static func lead(of current: String, over copy: String?) throws -> CashuLead {
        let database = try DatabaseQueue(path: current)
        defer { try? database.close() }
        return try database.writeWithoutTransaction { db in
            var lead = CashuLead()
            guard let copy else {
                lead.payments = try Int.fetchOne(db, sql: "SELECT count(*) FROM payments") ?? 0
                if try hasQuotes(db, "main") {
                    lead.payments +=
                        try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM quotes WHERE state != 'failed'") ?? 0
                }
                lead.proofs =
                    try Int.fetchOne(
                        db,
                        sql:
                            "SELECT count(*) FROM proofs WHERE state IN ('received', 'swapping', 'melting', 'unspent')"
                    ) ?? 0
                return lead
            }
            try db.execute(sql: "ATTACH DATABASE ? AS copy", arguments: [copy])
            defer { try? db.execute(sql: "DETACH DATABASE copy") }
            lead.payments =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM main.payments p
                        WHERE NOT EXISTS (SELECT 1 FROM copy.payments c WHERE c.id = p.id AND c.token = p.token)
                        """) ?? 0
            lead.proofs =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM main.proofs p JOIN copy.proofs c ON c.y = p.y
                        WHERE c.state IN ('received', 'unspent') AND p.state NOT IN ('received', 'unspent')
                        """) ?? 0
            lead.proofs +=
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM main.proofs p
                        WHERE p.state IN ('received', 'swapping', 'melting', 'unspent')
                            AND NOT EXISTS (SELECT 1 FROM copy.proofs c WHERE c.y = p.y)
                        """) ?? 0
            // A quote the copy lacks, or holds in another state (a v1 copy has none); a failed
            // one changed nothing.
            if try hasQuotes(db, "main") {
                lead.payments +=
                    try Int.fetchOne(
                        db,
                        sql: try hasQuotes(db, "copy")
                            ? """
                            SELECT count(*) FROM main.quotes q WHERE q.state != 'failed' AND NOT EXISTS (
                                SELECT 1 FROM copy.quotes c
                                WHERE c.mint = q.mint AND c.quote = q.quote AND c.state = q.state)
                            """
                            : "SELECT count(*) FROM main.quotes WHERE state != 'failed'") ?? 0
            }
            return lead
        }
    }

    /// Whether `schema` (a store, or an attached copy) has schema v2's quotes.
    private static func hasQuotes(_ db: Database, _ schema: String) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: "SELECT 1 FROM \(schema).sqlite_master WHERE type = 'table' AND name = 'quotes'")
            ?? false
    }
}
