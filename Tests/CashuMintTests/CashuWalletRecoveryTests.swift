import Cashu
import CashuMint
import CashuStore
import CashuWallet
import Codecs
import Foundation
import Secp256k1
import Testing

/// The wallet against a real mint, where a crash can leave it: a swap recorded and sent but
/// its answer lost, or recorded and never sent. Either way the next sync ends with every
/// proof swapped once, nothing lost and nothing counted twice.
@Suite(.cashuMint) struct CashuWalletRecoveryTests {
    let rig: CashuMintRig
    let wallet: CashuWallet
    let folder: URL

    init() throws {
        rig = try #require(CashuMintRig.current)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cashu-wallet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try CashuDatabase(path: folder.appendingPathComponent("cashu.sqlite").path)
        wallet = CashuWallet(
            store: store, lockKey: try PrivateKey(bytes: [UInt8](repeating: 0x42, count: 32)))
    }

    private func now() -> UInt64 { UInt64(Date().timeIntervalSince1970) }

    /// A token of `amount` minted at the rig's mint and taken offline by the wallet.
    private func taken(_ amount: UInt64) async throws -> [Proof] {
        _ = try await wallet.addMint(rig.mint, now: { UInt64(Date().timeIntervalSince1970) })
        let keyset = try await rig.satKeyset()
        let token = Token(
            mint: rig.mint.url, unit: "sat",
            proofs: try await rig.mintProofs(amount, keyset: keyset))
        _ = try wallet.receive(token.encoded(), now: now())
        return try wallet.store.proofs(mint: rig.mint.url, states: ["received"])
    }

    private func spendable() throws -> UInt64 {
        try wallet.store.balances(now: nil).reduce(0) { $0 + $1.spendable }
    }

    @Test func aSwapWhoseAnswerWasLostIsFinishedFromTheMintsRecords() async throws {
        let inputs = try await taken(45)
        let outputs = rig.outputs(UInt64(45).powersOfTwo, keyset: try await rig.satKeyset())
        _ = try wallet.store.beginSwap(
            mint: rig.mint.url, inputs: inputs, outputs: outputs, now: now())
        _ = try await rig.mint.swap(inputs: inputs, outputs: outputs.map(\.message))  // the answer is "lost"
        let report = await wallet.settle(
            with: rig.mint, now: { UInt64(Date().timeIntervalSince1970) })
        #expect(report.failure == nil && report.recovered == 1 && report.refused.isEmpty)
        // What the recovered swap gave counts as swapped, as if this sync had sent it.
        #expect(report.swapped == ["sat": 45])
        #expect(try wallet.store.pendingSwaps().isEmpty)
        #expect(try spendable() == 45)
        // The recovered proofs are the wallet's own: the mint says they are unspent.
        let own = try wallet.store.proofs(mint: rig.mint.url, states: ["unspent"])
        #expect(Set(own.map(\.secret)) == Set(outputs.map(\.secret)))
        let states = try await rig.mint.checkState(try own.map { try $0.y() })
        #expect(states.allSatisfy { $0.state == .unspent })
    }

    /// `send --lock-to` cut short after the mint split the proofs: the outputs locked to the
    /// payee are the payee's, so the sync records them as given (a token to hand over), not as
    /// spendable; the change is the wallet's own.
    @Test func aLockedGiveCutShortKeepsItsTokenAsGiven() async throws {
        let inputs = try await taken(16)
        _ = await wallet.settle(with: rig.mint, now: { UInt64(Date().timeIntervalSince1970) })
        let own = try wallet.store.proofs(mint: rig.mint.url, states: ["unspent"])
        #expect(own.reduce(0) { $0 + $1.amount } == 16 && own.count == inputs.count)
        let keyset = try await rig.satKeyset()
        let payee = try PrivateKey(bytes: [UInt8](repeating: 0x17, count: 32)).publicKey
        var generator = SystemRandomNumberGenerator()
        let lock = SpendingCondition(
            kind: "P2PK", nonce: "00ff", data: Hex.encode(payee.compressed, prefix: false),
            tags: [["sigflag", "SIG_INPUTS"]]
        ).secret
        let outputs =
            [PreparedOutput.random(amount: 8, keysetID: keyset.id, secret: lock, using: &generator)]
            + rig.outputs([4, 2, 1, 1], keyset: keyset)
        _ = try wallet.store.beginSwap(
            mint: rig.mint.url, inputs: own, outputs: outputs, now: now())
        _ = try await rig.mint.swap(inputs: own, outputs: outputs.map(\.message))  // answer "lost"
        let report = await wallet.settle(
            with: rig.mint, now: { UInt64(Date().timeIntervalSince1970) })
        #expect(report.failure == nil && report.recovered == 1 && report.swapped.isEmpty)
        #expect(try spendable() == 8)
        let given = try #require(try wallet.store.payments().last)
        #expect(given.direction == .outgoing && given.amount == 8 && given.state == .sent)
        let token = try Token.decode(given.token)
        #expect(token.proofs.map(\.secret) == [lock])
    }

    @Test func aSwapNeverSentIsSentAgain() async throws {
        let inputs = try await taken(19)
        let outputs = rig.outputs(UInt64(19).powersOfTwo, keyset: try await rig.satKeyset())
        _ = try wallet.store.beginSwap(
            mint: rig.mint.url, inputs: inputs, outputs: outputs, now: now())
        let report = await wallet.settle(
            with: rig.mint, now: { UInt64(Date().timeIntervalSince1970) })
        #expect(report.failure == nil && report.recovered == 1 && report.swapped == ["sat": 19])
        #expect(try wallet.store.pendingSwaps().isEmpty)
        #expect(try spendable() == 19)
        let states = try await rig.mint.checkState(try inputs.map { try $0.y() })
        #expect(states.allSatisfy { $0.state == .spent })
    }

    @Test func aMintThatCannotBeReachedLeavesEverythingAsItWas() async throws {
        let inputs = try await taken(7)
        let http = MintClient.makeHTTPClient()
        let nowhere = MintClient(url: "http://127.0.0.1:9", client: http, timeout: .seconds(5))
        let report = await wallet.settle(
            with: nowhere, now: { UInt64(Date().timeIntervalSince1970) })
        try await http.shutdown()
        #expect(report.failure != nil)
        #expect(try wallet.store.proofs(mint: rig.mint.url, states: ["received"]) == inputs)
        #expect(try wallet.store.pendingSwaps().isEmpty)
    }
}
