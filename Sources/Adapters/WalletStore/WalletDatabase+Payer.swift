import Foundation
import GRDB
import Tender

extension WalletDatabase {
    /// Candidate coins for paying `amount`: the smallest single unspent coin that covers it, or
    /// else the largest ones until they do (the rule `PaymentBuilder.select` applies), read with
    /// indexed queries so a wallet of 100,000 coins does not load them all.
    public func candidateCoins(
        owner: Address, asset: Address, amount: Amount, now: UInt64, minimumLifetime: UInt64,
        limits: VerificationLimits
    ) throws -> [SpendableCoin] {
        try read { db in
            try Self.candidateCoins(
                db, owner: owner, asset: asset, amount: amount, now: now,
                minimumLifetime: minimumLifetime, limits: limits)
        }
    }

    /// Every coin of `asset` a payment could take now, and the asset's balance, read in one
    /// transaction: a payment handed over between two reads would otherwise have its coins
    /// counted by neither.
    public func payability(
        owner: Address, asset: Address, now: UInt64, minimumLifetime: UInt64,
        limits: VerificationLimits
    ) throws -> (coins: [SpendableCoin], balance: Balance) {
        try read { db in
            (
                try Self.candidateCoins(
                    db, owner: owner, asset: asset, amount: .max, now: now,
                    minimumLifetime: minimumLifetime, limits: limits),
                try Self.balances(db, now: now, minimumLifetime: minimumLifetime)[asset]
                    ?? Balance()
            )
        }
    }

    static func candidateCoins(
        _ db: Database, owner: Address, asset: Address, amount: Amount, now: UInt64,
        minimumLifetime: UInt64, limits: VerificationLimits
    ) throws -> [SpendableCoin] {
        do {
            let filter = """
                state = '\(CoinState.unspent.rawValue)' AND asset = ? AND owner = ? AND depth < ?
                    AND expiry > ?
                """
            let base: StatementArguments = [
                asset, owner, limits.maxHops, (now &+ minimumLifetime).column,
            ]
            if let single = try Row.fetchOne(
                db,
                sql:
                    "SELECT * FROM coins WHERE \(filter) AND amount >= ? ORDER BY amount, id LIMIT 1",
                arguments: base + [amount])
            {
                return [try Self.spendable(db, single)]
            }
            var chosen: [SpendableCoin] = []
            var total: Amount = 0
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT * FROM coins WHERE \(filter) ORDER BY amount DESC, id DESC",
                arguments: base)
            while let row = try cursor.next(), total < amount {
                let coin = try Self.spendable(db, row)
                chosen.append(coin)
                total = total.addingReportingOverflow(coin.coin.amount).partialValue
            }
            return chosen
        }
    }

    static func spendable(_ db: Database, _ row: Row) throws -> SpendableCoin {
        let id = try row.decode(Bytes32.self, forColumn: "id")
        let proof = try proof(db, of: id)
        let depth = try row.decode(Int.self, forColumn: "depth")
        let expiry = try row.seconds("expiry")
        let coin = Coin(
            id: id, owner: try row.decode(Address.self, forColumn: "owner"),
            issuer: try row.decode(Address.self, forColumn: "issuer"),
            asset: try row.decode(Address.self, forColumn: "asset"),
            amount: try row.decode(UInt128.self, forColumn: "amount"), expiry: expiry, depth: depth,
            origin: .note(0))
        return SpendableCoin(coin: coin, proof: proof)
    }

    /// Reserves the plan's coins, records its transfers in the seen-set, stores the change as
    /// incoming and the payment as `prepared`: one transaction, before anything leaves the node.
    /// A coin that is no longer unspent aborts it all. With `limits` (a payment the node makes
    /// on its own), the same transaction checks them and records what it counts against them.
    public func preparePayment(
        _ plan: PaymentPlan, envelope: [UInt8], within limits: [SpendingLimit]? = nil,
        now: UInt64
    ) throws {
        let id = plan.payment.requestID
        try transaction { db in
            if let existing = try Self.outgoing(db, id) {
                // A cancelled payment never left the node: its request may be paid afresh.
                guard existing.state == .cancelled else {
                    throw WalletStoreError(.paymentExists(id))
                }
                try db.execute(
                    sql: "DELETE FROM outgoing_payments WHERE request_id = ?", arguments: [id])
            }
            if let limits { try Self.reserveSpending(db, plan.payment, under: limits, now: now) }
            try db.cachedStatement(
                sql: """
                    INSERT INTO outgoing_payments(request_id, payee, asset, amount, memo, state,
                        digest, envelope, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    id, plan.payment.payee, plan.payment.asset,
                    plan.payment.amount, plan.payment.memo, OutgoingPaymentState.prepared.rawValue,
                    plan.digest,
                    Data(envelope), now.column, now.column,
                ])
            for coin in plan.spent {
                let moved = try db.move(
                    coins: "id = ?", [id, coin], by: .reserve, also: "reserved_by = ?", now: now)
                guard moved == 1 else { throw WalletStoreError(.coinNotSpendable(coin)) }
            }
            try Self.recordSpends(
                db, transfers: plan.transfers, digests: plan.transferDigests, now: now)
            try Self.recordOrigins(
                db,
                zip(plan.transfers, plan.transferDigests).flatMap { transfer, digest in
                    transfer.outputCoins(digest: digest).map { ($0, digest) }
                })
            for change in plan.change {
                try Self.insertCoin(
                    db, change.coin, state: .incoming, source: .change, changeOf: id,
                    receivedIn: nil, now: now)
            }
        }
    }

    static func insertCoin(
        _ db: Database, _ coin: Coin, state: CoinState, source: CoinSource,
        changeOf: Bytes32?, receivedIn: Bytes32?, now: UInt64
    ) throws {
        let exists = try db.cachedStatement(sql: "SELECT 1 FROM coins WHERE id = ?")
        if try Bool.fetchOne(exists, arguments: [coin.id]) != nil {
            throw WalletStoreError(.rejected(ProtocolError(.alreadyHeld(coin.id))))
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO coins(id, owner, issuer, asset, amount, expiry, depth, state, source,
                    change_of, received_in, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                coin.id, coin.owner, coin.issuer, coin.asset,
                coin.amount, coin.expiry.column, coin.depth, state, source, changeOf,
                receivedIn, now.column,
            ])
    }

    /// Applies a state-machine event to an outgoing payment and moves its coins to match;
    /// returns the payment as it now stands (read in the same transaction). `receipt` is
    /// stored with `.receipt`; the caller has verified it.
    @discardableResult
    public func advance(
        payment id: Bytes32, by event: OutgoingPaymentState.Event, receipt: [UInt8]? = nil,
        acknowledging digest: Bytes32? = nil, now: UInt64
    ) throws -> OutgoingPaymentRecord {
        try transaction { db in
            guard let record = try Self.outgoing(db, id) else {
                throw WalletStoreError(.paymentNotFound(id))
            }
            // Checked again inside the transaction that applies it: the payment read before
            // may have been cancelled and prepared anew under the same id since.
            if let digest, digest != record.digest {
                throw WalletStoreError(
                    .rejected(
                        ProtocolError(
                            .paymentMismatch(
                                .receiptDigest(acknowledged: digest, payment: record.digest)))))
            }
            let next: OutgoingPaymentState
            do { next = try record.state.applying(event) } catch let error as ProtocolError {
                throw WalletStoreError(.rejected(error))
            }
            if next == record.state && record.receipt != nil { return record }  // idempotent
            try db.execute(
                sql: """
                    UPDATE outgoing_payments SET state = ?, receipt = coalesce(?, receipt),
                        updated_at = ? WHERE request_id = ?
                    """,
                arguments: [next.rawValue, receipt.map { Data($0) }, now.column, id])
            switch next {
            case .pending, .inDoubt, .spent:
                // The payment may have left: its transfer is irrevocable, so the inputs are
                // spent and the change is the payer's to spend (PROTOCOL.md §5).
                try db.move(coins: "reserved_by = ?", [id], by: .spend, now: now)
                try db.move(coins: "change_of = ?", [id], by: .releaseChange, now: now)
            case .cancelled:
                // It never left the node: forget its transfers and change so the coins spend
                // cleanly again. Change already spent onward cannot be given back.
                let spentChange =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT count(*) FROM coins
                            WHERE change_of = ? AND (state NOT IN (?, ?) OR reserved_by IS NOT NULL)
                            """, arguments: [id, CoinState.incoming, CoinState.unspent]) ?? 0
                guard spentChange == 0 else {
                    throw WalletStoreError(
                        .rejected(
                            ProtocolError(
                                .invalidTransition(
                                    state: "\(record.state.rawValue) with its change spent",
                                    event: event.rawValue))))
                }
                try db.execute(sql: "DELETE FROM coins WHERE change_of = ?", arguments: [id])
                try Self.releaseSpending(db, requestID: id)
                try Self.forgetTransfers(reservedBy: id, db)
                try db.move(coins: "reserved_by = ?", [id], by: .release, now: now)
                try db.execute(
                    sql: "UPDATE coins SET reserved_by = NULL WHERE reserved_by = ?",
                    arguments: [id])
            case .prepared:
                break
            }
            guard let updated = try Self.outgoing(db, id) else {
                throw WalletStoreError(.paymentNotFound(id))
            }
            return updated
        }
    }

    public func outgoingPayment(_ id: Bytes32) throws -> OutgoingPaymentRecord? {
        try read { db in try Self.outgoing(db, id) }
    }

    public func outgoingPayments() throws -> [OutgoingPaymentRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outgoing_payments ORDER BY created_at, rowid")
                .map(Self.outgoing(row:))
        }
    }

    static func outgoing(_ db: Database, _ id: Bytes32) throws -> OutgoingPaymentRecord? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM outgoing_payments WHERE request_id = ?", arguments: [id]
        ).map(outgoing(row:))
    }

    static func outgoing(row: Row) throws -> OutgoingPaymentRecord {
        OutgoingPaymentRecord(
            requestID: try row.decode(Bytes32.self, forColumn: "request_id"),
            payee: try row.decode(Address.self, forColumn: "payee"),
            asset: try row.decode(Address.self, forColumn: "asset"),
            amount: try row.decode(UInt128.self, forColumn: "amount"),
            memo: try row.decode(String.self, forColumn: "memo"),
            state: try row.decode(OutgoingPaymentState.self, forColumn: "state"),
            digest: try row.decode(Bytes32.self, forColumn: "digest"),
            envelope: Array(try row.decode(Data.self, forColumn: "envelope")),
            receipt: try row.decode(Data?.self, forColumn: "receipt").map(Array.init),
            createdAt: try row.seconds("created_at"), updatedAt: try row.seconds("updated_at"))
    }
}
