import Foundation
import GRDB
import Tender
import TenderTestSupport
import Testing

@testable import WalletStore

/// Each note and transfer is stored once; a coin's proof is rebuilt from its ancestry when it
/// is spent, equal to the proof the payer sent. Wallets from before (a proof copy per coin)
/// are converted on open.
@Suite struct ProofStoreTests {
    let world = World()

    func path() throws -> String {
        try TemporaryDirectory("tender-proofs").file("wallet.sqlite")
    }

    func store(for owner: Address) throws -> WalletDatabase {
        let store = try WalletDatabase(path: try path())
        try store.bind(address: owner, domain: world.domain)
        return store
    }

    func count(_ store: WalletDatabase, _ table: String) throws -> Int {
        try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    /// Bob's wallet as an older version made it: the schema up to `migration`, and his
    /// identity.
    func bobsWallet(at file: String, upTo migration: String) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: file)
        try Schema.migrator.migrate(queue, upTo: migration)
        try queue.write { db in
            for (key, value) in [
                ("address", world.bob.checksummed), ("chain_id", String(world.domain.chainID)),
                ("vault", world.domain.vault.checksummed),
            ] {
                try db.execute(
                    sql: "INSERT INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
        return queue
    }

    /// Alice's note, paid through Carol to Bob in two coins of one transfer, plus change.
    func twoHops() -> (bundle: ProofBundle, toBob: SignedTransfer) {
        let note = world.note(100)
        let toCarol = world.transfer(
            [note.coinID(in: world.domain)], [(world.carol, 70), (world.alice, 30)],
            by: world.aliceKey)
        let toBob = world.transfer(
            [world.outputs(of: toCarol)[0]], [(world.bob, 20), (world.bob, 25), (world.carol, 25)],
            by: world.carolKey)
        return (ProofBundle(notes: [note], transfers: [toCarol, toBob]), toBob)
    }

    @Test func eachItemIsStoredOnceAndEveryProofIsRebuilt() throws {
        let bob = try store(for: world.bob)
        let (bundle, toBob) = twoHops()
        let payment = world.payment(bundle, to: world.bob, amount: 45)
        let checked = try world.verifier.check(
            payment, payee: world.bob, policy: world.policy, now: world.now)
        try bob.acceptPayment(checked, receipt: [1], now: world.now)
        #expect(try count(bob, "notes") == 1)
        #expect(try count(bob, "transfers") == 2)
        // Origins of the coins a proof can reach: the two spent in it; the two Bob holds name
        // theirs in their own rows.
        #expect(try count(bob, "coin_origins") == 2)
        #expect(
            try bob.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM coins WHERE origin IS NOT NULL")
            } == 2)
        for coin in world.outputs(of: toBob).prefix(2) {
            let rebuilt = try bob.read { db in try WalletDatabase.proof(db, of: coin) }
            #expect(rebuilt == checked.verified.proof(of: coin))
        }
        // Bob pays both coins onward: the proof sent is the one received, once.
        let candidates = try bob.candidateCoins(
            owner: world.bob, asset: .zero, amount: 45, now: world.now, minimumLifetime: 0,
            limits: .standard)
        #expect(candidates.count == 2)
        let plan = try PaymentBuilder(domain: world.domain).plan(
            requestID: try Bytes32([UInt8](repeating: 2, count: 32)), payee: world.carol,
            amount: 45, asset: .zero, from: candidates, key: world.bobKey, now: world.now)
        #expect(plan.payment.bundle.notes == bundle.notes)
        #expect(Array(plan.payment.bundle.transfers.prefix(2)) == bundle.transfers)
        _ = try world.verifier.check(
            plan.payment, payee: world.carol, policy: world.policy, now: world.now)
    }

    @Test func aCancelledPaymentLeavesNoTransferBehind() throws {
        let alice = try store(for: world.alice)
        let notes = ProofBundle(notes: [world.note(100)])
        try alice.acceptPayment(
            try world.verifier.check(
                world.payment(notes, to: world.alice, amount: 100), payee: world.alice,
                policy: world.policy, now: world.now), receipt: [1], now: world.now)
        let tables = ["transfers", "spends", "coin_origins", "coins"]
        let before = try tables.map { try count(alice, $0) }
        let candidates = try alice.candidateCoins(
            owner: world.alice, asset: .zero, amount: 10, now: world.now, minimumLifetime: 0,
            limits: .standard)
        let plan = try PaymentBuilder(domain: world.domain).plan(
            requestID: .zero, payee: world.bob, amount: 10, asset: .zero, from: candidates,
            key: world.aliceKey, now: world.now)
        try alice.preparePayment(plan, envelope: [1], now: world.now)
        #expect(try tables.map { try count(alice, $0) } != before)
        try alice.advance(payment: .zero, by: .cancel, now: world.now)
        #expect(try tables.map { try count(alice, $0) } == before)
    }

    /// A v2 wallet kept a copy of each coin's proof in `coins.proof`; opening it moves the
    /// items into their tables and drops the column, and the coins spend as before.
    @Test func aWalletWithProofCopiesMigratesOnOpen() throws {
        let file = try path()
        let (bundle, toBob) = twoHops()
        let verified = try world.verifier.verify(bundle, now: world.now)
        let queue = try bobsWallet(at: file, upTo: "v2: requests")
        try queue.write { db in
            for (transfer, digest) in zip(bundle.transfers, verified.transferDigests) {
                try db.execute(
                    sql: "INSERT INTO transfers(digest, body, first_seen) VALUES (?, ?, 1)",
                    arguments: [digest, Data(transfer.encoded())])
                for input in transfer.transfer.inputs {
                    try db.execute(
                        sql: "INSERT INTO spends(coin, transfer) VALUES (?, ?)",
                        arguments: [input, digest])
                }
            }
            for coin in world.outputs(of: toBob).prefix(2) {
                let item = verified.coins[coin]!
                try db.execute(
                    sql: """
                        INSERT INTO coins(id, owner, issuer, asset, amount, expiry, depth, state,
                            source, proof, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, 'unspent', 'received', ?, 1)
                        """,
                    arguments: [
                        coin, item.owner, item.issuer, item.asset,
                        item.amount, item.expiry.column, item.depth,
                        Data(verified.proof(of: coin)!.encoded()),
                    ])
            }
        }
        try queue.close()

        let store = try WalletDatabase(path: file)
        let candidates = try store.candidateCoins(
            owner: world.bob, asset: .zero, amount: 45, now: world.now, minimumLifetime: 0,
            limits: .standard)
        #expect(
            candidates.map(\.proof) == [
                verified.proof(of: candidates[0].coin.id)!,
                verified.proof(of: candidates[1].coin.id)!,
            ])
        #expect(try count(store, "notes") == 1)
        let columns = try store.read { db in try db.columns(in: "coins").map(\.name) }
        #expect(!columns.contains("proof"))
    }

    /// A v12 wallet kept each coin's owner, issuer and asset in full, its origin in
    /// coin_origins and an index from each transfer to its inputs; opening it moves the coins
    /// to the compact rows of v13 and they spend as before.
    @Test func aV12WalletMovesItsCoinsToCompactRowsOnOpen() throws {
        let file = try path()
        let (bundle, toBob) = twoHops()
        let verified = try world.verifier.verify(bundle, now: world.now)
        let held = Array(world.outputs(of: toBob).prefix(2))
        let orphan = try Bytes32([UInt8](repeating: 0x0C, count: 32))
        let queue = try bobsWallet(at: file, upTo: "v12: redeem trouble")
        try queue.write { db in
            try WalletDatabase.recordProof(db, verified, keeping: held, now: 1)
            try db.execute(
                sql: """
                    INSERT INTO incoming_payments(request_id, asset, amount, memo, digest, receipt,
                        received_at) VALUES (?, ?, ?, '', ?, x'01', 1)
                    """,
                arguments: [
                    Data(repeating: 7, count: 32), Address.zero, Amount(45), Data(count: 32),
                ])
            for coin in held {
                let item = verified.coins[coin]!
                try db.execute(
                    sql: """
                        INSERT INTO coins(id, owner, issuer, asset, amount, expiry, depth, state,
                            source, received_in, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, 'unspent', 'received', ?, 1)
                        """,
                    arguments: [
                        coin, item.owner, item.issuer, item.asset, item.amount,
                        item.expiry.column, item.depth, Data(repeating: 7, count: 32),
                    ])
            }
            // A coin in a redeem transaction, of an older store that kept no origin for it.
            let tx = Data(repeating: 9, count: 32)
            try db.execute(
                sql: """
                    INSERT INTO coins(id, owner, issuer, asset, amount, expiry, depth, state,
                        source, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, 1, 'redeeming', 'received', 1);
                    INSERT INTO redeem_transactions(hash, chain_id, vault, sender, nonce, raw, state,
                        created_at, updated_at) VALUES (?, 31337, ?, ?, 0, x'00', 'signed', 1, 1);
                    INSERT INTO redeem_coins(coin, tx) VALUES (?, ?);
                    """,
                arguments: [
                    orphan, world.bob, world.issuer, Address.zero, Amount(5), world.expiry.column,
                    tx, world.domain.vault, world.bob, orphan, tx,
                ])
        }
        #expect(
            try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM coin_origins") }
                == 4)
        try queue.close()

        let store = try WalletDatabase(path: file)
        let columns = try store.read { db in try db.columns(in: "coins").map(\.name) }
        #expect(
            columns == [
                "id", "issuer_ref", "asset_ref", "amount", "expiry", "depth", "state",
                "reserved_by", "change_of", "origin", "updated_at", "received_in",
            ])
        #expect(
            try store.read { db in try db.indexes(on: "spends").map(\.name) }.allSatisfy {
                $0 != "spends_by_transfer"
            })
        #expect(try store.read { db in try db.foreignKeys(on: "spends").isEmpty })
        // Every row kept: the one without an origin as such, still in its redeem.
        let kept = try store.read { db in
            try Row.fetchOne(
                db, sql: "SELECT origin IS NULL AS bare, state FROM coins WHERE id = ?",
                arguments: [orphan])
        }
        #expect(kept?["bare"] == true && kept?["state"] == "redeeming")
        #expect(try count(store, "redeem_coins") == 1 && (try count(store, "coins")) == 3)
        // The held coins name their origin in their rows; coin_origins keeps the two spent.
        #expect(try count(store, "coin_origins") == 2)
        #expect(
            try store.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM coins WHERE origin IS NOT NULL")
            } == 2)
        #expect(try store.ownership(of: held[0]) == .held(owner: world.bob))
        #expect(try store.balances(now: world.now, minimumLifetime: 0)[.zero]?.spendable == 45)
        let candidates = try store.candidateCoins(
            owner: world.bob, asset: .zero, amount: 45, now: world.now, minimumLifetime: 0,
            limits: .standard)
        #expect(Set(candidates.map(\.coin.id)) == Set(held))
        for candidate in candidates {
            #expect(candidate.proof == verified.proof(of: candidate.coin.id))
            #expect(candidate.coin.issuer == verified.coins[candidate.coin.id]?.issuer)
        }
        let plan = try PaymentBuilder(domain: world.domain).plan(
            requestID: try Bytes32([UInt8](repeating: 3, count: 32)), payee: world.carol,
            amount: 30, asset: .zero, from: candidates, key: world.bobKey, now: world.now)
        try store.preparePayment(plan, envelope: [1], now: world.now)
        _ = try world.verifier.check(
            plan.payment, payee: world.carol, policy: world.policy, now: world.now)
    }
}
