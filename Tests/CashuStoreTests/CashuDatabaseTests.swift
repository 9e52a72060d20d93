import CashuStore
import CashuTestSupport
import Foundation
import Testing

@testable import Cashu

@Suite struct CashuDatabaseTests {
    let mint: TestMint
    let folder: URL
    let store: CashuDatabase

    init() throws {
        mint = try TestMint()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cashu-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = try CashuDatabase(path: folder.appendingPathComponent("cashu.sqlite").path)
        try store.addMint(mint.url, now: 1)
        try store.saveKeysets([mint.keyset], mint: mint.url, now: 1)
    }

    private func take(
        _ amounts: [UInt64], prefix: String = "s", now: UInt64 = 10
    ) throws -> CashuPayment {
        let token = try mint.token(amounts, secretPrefix: prefix)
        let accepted = try OfflineAcceptance(
            keysets: try store.keysets(mint: mint.url), payeeKey: nil, lockPolicy: .acceptUnlocked,
            now: now
        ).check(token)
        return try store.receive(token, text: token.encoded(), accepted: accepted, now: now)
    }

    /// What the mint would sign for `outputs` (the TestMint's keys, with DLEQ).
    private func signatures(for outputs: [PreparedOutput]) throws -> [Proof] {
        try outputs.map { output in
            let a = mint.privateKeys[output.amount]!
            let c = try a.withUnsafeBytes {
                try BlindDiffieHellman.sign(blinded: output.message.blinded, mintKey: Array($0))
            }
            let (e, s) = try mint.dleq(
                a: a, blinded: output.message.blinded, blindSignature: c, nonce: 5)
            return try output.proof(
                from: BlindSignature(
                    amount: output.amount, keysetID: output.keysetID, signature: c,
                    dleq: try DLEQProof(e: e, s: s, r: nil)),
                keyset: mint.keyset)
        }
    }

    private func outputs(_ amounts: [UInt64]) -> [PreparedOutput] {
        var generator = SystemRandomNumberGenerator()
        return amounts.map {
            PreparedOutput.random(amount: $0, keysetID: mint.keyset.id, using: &generator)
        }
    }

    @Test func keysetsComeBackCheckedAndACollisionIsRefused() throws {
        #expect(try store.keysets(mint: mint.url) == [mint.keyset])
        try store.saveKeysets([mint.keyset], mint: mint.url, now: 2)  // the same again: fine
        try store.addMint("http://other.test", now: 2)
        #expect(throws: CashuStoreError.self) {
            try store.saveKeysets([mint.keyset], mint: "http://other.test", now: 2)
        }
        #expect(throws: CashuStoreError.self) {
            try store.saveKeysets([mint.keyset], mint: "http://unknown.test", now: 2)
        }
    }

    @Test func aTokenTakenTwiceIsRefusedTheSecondTime() throws {
        let payment = try take([1, 4])
        #expect(payment.state == .received && payment.amount == 5)
        #expect(throws: CashuStoreError.self) { try take([1, 4]) }
        #expect(try store.payments().count == 1)
        let balance = try #require(try store.balances(now: nil).first)
        #expect(balance.atRisk == 5 && balance.spendable == 0)
    }

    /// A memo is the payer's words: kept to 256 characters, a NUL shown (SQLite's text would
    /// end at it); the token's text keeps every byte.
    @Test func aMemoIsKeptShortAndWhole() throws {
        let plain = try mint.token([4], secretPrefix: "memo")
        let token = Token(
            mint: plain.mint, unit: plain.unit,
            memo: "tea\u{0}for two" + String(repeating: "x", count: 400), proofs: plain.proofs)
        let accepted = try OfflineAcceptance(
            keysets: try store.keysets(mint: mint.url), payeeKey: nil, lockPolicy: .acceptUnlocked,
            now: 10
        ).check(token)
        let payment = try store.receive(token, text: token.encoded(), accepted: accepted, now: 10)
        let memo = try #require(try store.payment(payment.id)?.memo)
        #expect(memo.hasPrefix("tea\u{FFFD}for two") && memo.count == 256 && memo.hasSuffix("…"))
        #expect(
            try Token.decode(try #require(try store.payment(payment.id)?.token)).memo == token.memo)
    }

    /// A lock to this wallet counts as locked only until its time: then the payer's refund key
    /// can spend the proofs, and they are at risk like any unlocked ones.
    @Test func aLockCountsAsLockedOnlyUntilItsTime() throws {
        let token = try mint.token([2, 8], secretPrefix: "lock")
        let accepted = OfflineAcceptance.Accepted(
            amount: 10, lockedProofs: 1, lockedUntil: 5000,
            keysetIDs: token.proofs.map { _ in mint.keyset.id }, locked: [false, true])
        _ = try store.receive(token, text: token.encoded(), accepted: accepted, now: 10)
        let before = try #require(try store.balances(now: 4999).first)
        #expect(before.locked == 8 && before.atRisk == 2)
        let after = try #require(try store.balances(now: 5000).first)
        #expect(after.locked == 0 && after.atRisk == 10)
        #expect(try store.balances(now: nil).first?.locked == 8)
    }

    @Test func aSwapTurnsReceivedProofsIntoTheWalletsOwn() throws {
        let payment = try take([1, 4, 8])
        let inputs = try store.proofs(mint: mint.url, states: ["received"])
        let prepared = outputs([8, 4, 1])
        let swap = try store.beginSwap(mint: mint.url, inputs: inputs, outputs: prepared, now: 20)
        #expect(try store.payment(payment.id)?.state == .swapping)
        #expect(try store.balances(now: nil).first?.swapping == 13)
        // A crash here: the pending swap, with its outputs, is read back whole.
        let reopened = try CashuDatabase(path: store.path)
        let pending = try #require(try reopened.pendingSwaps().first)
        #expect(pending.id == swap && pending.inputs == inputs && pending.outputs == prepared)
        try reopened.completeSwap(swap, proofs: try signatures(for: pending.outputs), now: 21)
        let swapped = try #require(try reopened.payment(payment.id))
        // Taken at 10, swapped at 21: the payment says when it last changed.
        #expect(swapped.state == .swapped && swapped.createdAt == 10 && swapped.updatedAt == 21)
        #expect(try reopened.pendingSwaps().isEmpty)
        let balance = try #require(try reopened.balances(now: nil).first)
        #expect(balance.spendable == 13 && balance.atRisk == 0 && balance.swapping == 0)
        #expect(throws: CashuStoreError.self) {
            try reopened.completeSwap(swap, proofs: [], now: 22)
        }
    }

    @Test func aSwapRefusedForADoubleSpendKeepsTheEvidence() throws {
        let first = try take([2, 8], prefix: "a")
        let second = try take([16], prefix: "b")
        let inputs = try store.proofs(mint: mint.url, states: ["received"])
        let swap = try store.beginSwap(
            mint: mint.url, inputs: inputs, outputs: outputs([16, 8, 2]), now: 20)
        let spent = try inputs.filter { $0.amount == 8 }.map { try $0.y() }
        try store.failSwap(
            swap,
            refused: Dictionary(
                uniqueKeysWithValues: spent.map { ($0, "proofs already spent (11001)") }), now: 21)
        let refused = try #require(try store.payment(first.id))
        #expect(
            refused.state == .partRefused && refused.refused == 8
                && refused.refusal == "proofs already spent (11001)")
        #expect(refused.token == (try mint.token([2, 8], secretPrefix: "a")).encoded())
        #expect(try store.payment(second.id)?.state == .received)
        #expect(try store.balances(now: nil).first?.atRisk == 18)
        #expect(throws: CashuStoreError.self) { try store.failSwap(swap, refused: [:], now: 22) }
    }

    @Test func sendingTakesProofsThatMakeTheAmountExactly() throws {
        _ = try take([1, 2, 4, 8])
        let inputs = try store.proofs(mint: mint.url, states: ["received"])
        let swap = try store.beginSwap(
            mint: mint.url, inputs: inputs, outputs: outputs([8, 4, 2, 1]), now: 20)
        try store.completeSwap(
            swap, proofs: try signatures(for: try store.pendingSwaps()[0].outputs), now: 21)
        let sent = try store.send(amount: 6, unit: "sat", mint: mint.url, memo: "tea", now: 30) {
            proofs in
            Token(mint: mint.url, unit: "sat", memo: "tea", proofs: proofs).encoded()
        }
        let token = try Token.decode(sent.token)
        #expect(token.proofs.map(\.amount).sorted() == [2, 4] && sent.state == .sent)
        // The payee can check what it was given offline: each proof carries its DLEQ and r.
        #expect(
            try OfflineAcceptance(
                keysets: [mint.keyset], payeeKey: nil, lockPolicy: .acceptUnlocked, now: 30
            ).check(token).amount == 6)
        #expect(try store.balances(now: nil).first?.spendable == 9)
        #expect(throws: CashuStoreError.self) {
            try store.send(amount: 10, unit: "sat", mint: mint.url, memo: nil, now: 31) { _ in "" }
        }
        #expect(throws: CashuStoreError.self) {
            try store.send(amount: 6, unit: "sat", mint: mint.url, memo: nil, now: 31) { _ in "" }  // 8 + 1 cannot make 6
        }
        #expect(try store.balances(now: nil).first?.spendable == 9)
    }
}
