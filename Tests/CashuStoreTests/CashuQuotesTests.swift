import Cashu
import CashuTestSupport
import Foundation
import GRDB
import Testing

@testable import CashuStore

/// Mint quotes and melts in the store (schema v2): each step one transaction, every proof
/// counted once, a v1 store upgraded with what it held.
@Suite struct CashuQuotesTests {
    let mint: TestMint
    let folder: URL
    let store: CashuDatabase

    init() throws {
        mint = try TestMint()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cashu-quotes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try CashuDatabase(path: folder.appendingPathComponent("cashu.sqlite").path)
        try store.addMint(mint.url, now: 1)
        try store.saveKeysets([mint.keyset], mint: mint.url, now: 1)
    }

    private func outputs(_ amounts: [UInt64]) -> [PreparedOutput] {
        var generator = SystemRandomNumberGenerator()
        return amounts.map {
            PreparedOutput.random(amount: $0, keysetID: mint.keyset.id, using: &generator)
        }
    }

    private var balance: CashuBalance {
        get throws {
            try store.balances(now: nil).first ?? CashuBalance(mint: mint.url, unit: "sat")
        }
    }

    /// `amounts` minted through a quote: the wallet's own, unspent.
    @discardableResult
    private func minted(_ amounts: [UInt64], quote: String = "q1") throws -> MintQuoteRecord {
        let record = try store.saveMintQuote(
            mint: mint.url, quote: quote, unit: "sat", amount: amounts.reduce(0, +),
            request: "lnbc1", expiry: 100, now: 2)
        try store.beginIssue(record.id, outputs: outputs(amounts), now: 3)
        try store.completeIssue(
            record.id, proofs: try mint.token(amounts, secretPrefix: quote).proofs, now: 4)
        return try #require(try store.mintQuote(mint: mint.url, quote: quote))
    }

    @Test func aMintQuoteGoesFromUnpaidToIssued() throws {
        let record = try store.saveMintQuote(
            mint: mint.url, quote: "q1", unit: "sat", amount: 5, request: "lnbc1", expiry: 100,
            now: 2)
        #expect(record.state == .unpaid && record.outputs.isEmpty)
        #expect(try store.mintsWithOpenQuotes() == [mint.url])
        let recorded = outputs([1, 4])
        try store.beginIssue(record.id, outputs: recorded, now: 3)
        let issuing = try #require(try store.openMintQuotes().first)
        #expect(issuing.state == .issuing && issuing.outputs == recorded)
        // Outputs are recorded once: a second begin is refused.
        #expect(throws: CashuStoreError.self) {
            try store.beginIssue(record.id, outputs: outputs([5]), now: 3)
        }
        #expect(try balance.spendable == 0)
        try store.completeIssue(
            record.id, proofs: try mint.token([1, 4], secretPrefix: "q").proofs, now: 4)
        #expect(try balance.spendable == 5)
        #expect(try store.openMintQuotes().isEmpty && store.mintsWithOpenQuotes().isEmpty)
        #expect(throws: CashuStoreError.self) {
            try store.completeIssue(
                record.id, proofs: try mint.token([1, 4], secretPrefix: "r").proofs, now: 5)
        }
        #expect(try balance.spendable == 5)
    }

    @Test func onlyAnUnpaidQuoteIsDroppedWhole() throws {
        let unpaid = try store.saveMintQuote(
            mint: mint.url, quote: "q1", unit: "sat", amount: 5, request: "lnbc1", expiry: 100,
            now: 2)
        let issuing = try store.saveMintQuote(
            mint: mint.url, quote: "q2", unit: "sat", amount: 5, request: "lnbc2", expiry: 100,
            now: 2)
        try store.beginIssue(issuing.id, outputs: outputs([1, 4]), now: 3)
        try store.dropMintQuote(unpaid.id)
        #expect(try store.mintQuote(mint: mint.url, quote: "q1") == nil)
        // Its outputs may have been signed: never dropped.
        #expect(throws: CashuStoreError.self) { try store.dropMintQuote(issuing.id) }
        #expect(try store.openMintQuotes().map(\.quote) == ["q2"])
    }

    @Test func aMeltHoldsItsInputsUntilPaidThenKeepsTheChange() throws {
        try minted([64, 32, 4])
        let inputs = try store.proofs(mint: mint.url, states: ["unspent"])
            .filter { $0.amount == 64 }
        let blanks = outputs([1, 1, 1])
        let id = try store.beginMelt(
            mint: mint.url, quote: "m1", unit: "sat", amount: 50, feeReserve: 2,
            request: "lnbc50", inputs: inputs, blanks: blanks, now: 5)
        #expect(try balance.spendable == 36 && balance.swapping == 64)
        #expect(try store.pendingMelts().map(\.id) == [id])
        #expect(try store.melt(id).blanks == blanks)
        // A melting proof is not given, nor melted again.
        #expect(throws: CashuStoreError.self) {
            try store.beginMelt(
                mint: mint.url, quote: "m2", unit: "sat", amount: 50, feeReserve: 2,
                request: "lnbc50", inputs: inputs, blanks: [], now: 5)
        }
        #expect(throws: CashuStoreError.self) {
            try store.send(amount: 64, unit: "sat", mint: mint.url, memo: nil, now: 5) { _ in "" }
        }
        let change = try mint.token([8, 4, 1], secretPrefix: "change").proofs
        try store.completeMelt(id, change: change, preimage: "00", now: 6)
        let melt = try store.melt(id)
        #expect(melt.state == .paid && melt.preimage == "00" && melt.inputs.count == 1)
        #expect(try balance.spendable == 36 + 13 && balance.swapping == 0)
        #expect(try store.proofs(mint: mint.url, states: ["spent"]).map(\.amount) == [64])
        #expect(throws: CashuStoreError.self) { try store.failMelt(id, now: 7) }
    }

    @Test func aFailedMeltGivesItsInputsBackAndKeepsTheRefused() throws {
        try minted([64, 32])
        let inputs = try store.proofs(mint: mint.url, states: ["unspent"])
        let id = try store.beginMelt(
            mint: mint.url, quote: "m1", unit: "sat", amount: 90, feeReserve: 2,
            request: "lnbc90", inputs: inputs, blanks: [], now: 5)
        #expect(try balance.spendable == 0 && balance.swapping == 96)
        try store.failMelt(
            id, refused: [try inputs[1].y(): "spent elsewhere"], now: 6)
        #expect(try store.melt(id).state == .failed)
        #expect(try balance.spendable == 64 && balance.swapping == 0)
        #expect(try store.proofs(mint: mint.url, states: ["refused"]).map(\.amount) == [32])
        #expect(try store.pendingMelts().isEmpty)
    }

    @Test func aBackupCountsQuotesAndMeltingProofsAsItsLead() throws {
        try minted([64])
        try store.close()
        let path = folder.appendingPathComponent("cashu.sqlite").path
        let copy = folder.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try CashuDatabase.lead(of: path, over: copy).isEmpty)
        let reopened = try CashuDatabase(path: path)
        _ = try reopened.saveMintQuote(
            mint: mint.url, quote: "q2", unit: "sat", amount: 5, request: "lnbc5", expiry: 100,
            now: 8)
        let inputs = try reopened.proofs(mint: mint.url, states: ["unspent"])
        _ = try reopened.beginMelt(
            mint: mint.url, quote: "m1", unit: "sat", amount: 60, feeReserve: 2,
            request: "lnbc60", inputs: inputs, blanks: [], now: 9)
        try reopened.close()
        let lead = try CashuDatabase.lead(of: path, over: copy)
        // The new mint quote and the melt; the proof the copy holds unspent is melting now.
        #expect(lead.payments == 2 && lead.proofs == 1)
        let fresh = try CashuDatabase.lead(of: path, over: nil)
        #expect(fresh.payments == 3 && fresh.proofs == 1)
    }

    @Test func aVersion1StoreIsUpgradedWithWhatItHeld() throws {
        let path = folder.appendingPathComponent("v1.sqlite").path
        try Self.makeVersion1Store(at: path, mint: mint)
        let copy = folder.appendingPathComponent("v1-copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let upgraded = try CashuDatabase(path: path)
        #expect(try upgraded.balances(now: nil).first?.spendable == 5)
        #expect(try upgraded.proofs(mint: mint.url, states: ["unspent"]).count == 2)
        // The new state and tables work in the upgraded store.
        let id = try upgraded.beginMelt(
            mint: mint.url, quote: "m1", unit: "sat", amount: 4, feeReserve: 1,
            request: "lnbc4", inputs: try upgraded.proofs(mint: mint.url, states: ["unspent"]),
            blanks: [], now: 5)
        #expect(try upgraded.balances(now: nil).first?.swapping == 5)
        try upgraded.close()
        // Against a v1 copy (no quotes table): the melt and its proofs are the lead.
        let lead = try CashuDatabase.lead(of: path, over: copy)
        #expect(lead.payments == 1 && lead.proofs == 2)
        _ = id
    }

    /// A store as schema v1 left it (its migration alone), holding two unspent proofs.
    static func makeVersion1Store(at path: String, mint: TestMint) throws {
        let proofs = try mint.token([1, 4], secretPrefix: "v1").proofs
        let ys = try proofs.map { try $0.y() }
        let queue = try DatabaseQueue(path: path)
        try CashuSchema.migrator.migrate(queue, upTo: "v1: cashu wallet")
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO mints (url, added_at) VALUES (?, 1)", arguments: [mint.url])
            try db.execute(
                sql: """
                    INSERT INTO keysets (mint, id, unit, keys, input_fee_ppk, active)
                    VALUES (?, ?, 'sat', ?, 0, 1)
                    """,
                arguments: [
                    mint.url, Data(mint.keyset.id),
                    Data(CashuDatabase.encode(keys: mint.keyset.keys)),
                ])
            for (proof, y) in zip(proofs, ys) {
                try db.execute(
                    sql: """
                        INSERT INTO proofs (y, mint, keyset, amount, secret, c, state, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?, 'unspent', 1)
                        """,
                    arguments: [
                        Data(y), mint.url, Data(mint.keyset.id), Int64(proof.amount), proof.secret,
                        Data(proof.signature.compressed),
                    ])
            }
        }
        try queue.close()
    }
}
