import Cashu
import CashuMint
import CashuStore
import CashuWallet
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
        #expect(try wallet.store.pendingSwaps().isEmpty)
        #expect(try spendable() == 45)
        // The recovered proofs are the wallet's own: the mint says they are unspent.
        let own = try wallet.store.proofs(mint: rig.mint.url, states: ["unspent"])
        #expect(Set(own.map(\.secret)) == Set(outputs.map(\.secret)))
        let states = try await rig.mint.checkState(try own.map { try $0.y() })
        #expect(states.allSatisfy { $0.state == .unspent })
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
