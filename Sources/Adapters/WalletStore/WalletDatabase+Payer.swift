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
            // Every coin a wallet holds is its own (PaymentCheck credits only the payee's
            // coins, and change is the payer's): `owner` is not stored.
            guard
                let assetRef = try Int64.fetchOne(
                    db, sql: "SELECT ref FROM addresses WHERE address = ?", arguments: [asset])
            else { return [] }
            let coins = """
                SELECT c.id, i.address AS issuer, c.amount, c.expiry, c.depth FROM coins c
                    JOIN addresses i ON i.ref = c.issuer_ref
                    WHERE c.state = '\(CoinState.unspent.rawValue)' AND c.asset_ref = ?
                        AND c.depth < ? AND c.expiry > ?
                """
            let base: StatementArguments = [
                assetRef, limits.maxHops, (now &+ minimumLifetime).column,
            ]
            if let single = try Row.fetchOne(
                db, sql: "\(coins) AND c.amount >= ? ORDER BY c.amount, c.id LIMIT 1",
                arguments: base + [amount])
            {
                return [try Self.spendable(db, single, owner: owner, asset: asset)]
            }
            var chosen: [SpendableCoin] = []
            var total: Amount = 0
            let cursor = try Row.fetchCursor(
                db, sql: "\(coins) ORDER BY c.amount DESC, c.id DESC", arguments: base)
            while let row = try cursor.next(), total < amount {
                let coin = try Self.spendable(db, row, owner: owner, asset: asset)
                chosen.append(coin)
                total = total.addingReportingOverflow(coin.coin.amount).partialValue
            }
            return chosen
        }
    }

    static func spendable(
        _ db: Database, _ row: Row, owner: Address, asset: Address
    ) throws -> SpendableCoin {
        let id = try row.decode(Bytes32.self, forColumn: "id")
        let proof = try proof(db, of: id)
        let depth = try row.decode(Int.self, forColumn: "depth")
        let expiry = try row.seconds("expiry")
        let coin = Coin(
            id: id, owner: owner, issuer: try row.decode(Address.self, forColumn: "issuer"),
            asset: asset,
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
            // Each output's origin: in the coin's own row for the change, in coin_origins for
            // the payee's coins (a later proof or evidence may reach them).
            var origins: [CoinID: Bytes32] = [:]
            for (transfer, digest) in zip(plan.transfers, plan.transferDigests) {
                for coin in transfer.outputCoins(digest: digest) { origins[coin] = digest }
            }
            for change in plan.change {
                guard let origin = origins.removeValue(forKey: change.coin.id) else {
                    throw WalletStoreError(
                        .corrupt("change \(change.coin.id.short) of no transfer"))
                }
                try Self.insertCoin(
                    db, change.coin, origin: origin, state: .incoming, changeOf: id, now: now)
            }
            try Self.recordOrigins(
                db, origins.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// Stores a coin this wallet now holds (its owner is the wallet's address), created by
    /// the note or transfer whose digest is `origin`.
    static func insertCoin(
        _ db: Database, _ coin: Coin, origin: Bytes32, state: CoinState, changeOf: Bytes32?,
        receivedIn payment: Int64? = nil, now: UInt64
    ) throws {
        let exists = try db.cachedStatement(sql: "SELECT 1 FROM coins WHERE id = ?")
        if try Bool.fetchOne(exists, arguments: [coin.id]) != nil {
            throw WalletStoreError(.rejected(ProtocolError(.alreadyHeld(coin.id))))
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO coins(id, issuer_ref, asset_ref, amount, expiry, depth, state,
                    change_of, origin, received_in, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                coin.id, try addressRef(db, coin.issuer), try addressRef(db, coin.asset),
                coin.amount, coin.expiry.column, coin.depth, state, changeOf, origin, payment,
                now.column,
            ])
    }

    /// The `addresses` row of `address`, made on first use.
    static func addressRef(_ db: Database, _ address: Address) throws -> Int64 {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO addresses(address) VALUES (?)")
            .execute(arguments: [address])
        guard
            let ref = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT ref FROM addresses WHERE address = ?"),
                arguments: [address])
        else { throw WalletStoreError(.corrupt("addresses table")) }
        return ref
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
