import Cashu
import CashuStore
import CashuTestSupport
import Foundation
import NodeHost
import NodeKit
import Tender
import TenderTestSupport
import Testing

/// The Cashu wallet travels in backups (Docs/BACKUP.md, Docs/CASHU.md), and a backup that
/// knows less of it than the folder is not restored over it.
@Suite struct CashuBackupTests {
    let helper = BackupTests()
    let mint: TestMint

    init() throws { mint = try TestMint() }

    private func take(_ amounts: [UInt64], into store: CashuDatabase, prefix: String) throws {
        let token = try mint.token(amounts, secretPrefix: prefix)
        let accepted = try OfflineAcceptance(
            keysets: [mint.keyset], payeeKey: nil, lockPolicy: .acceptUnlocked, now: 10
        ).check(token)
        _ = try store.receive(token, text: token.encoded(), accepted: accepted, now: 10)
    }

    @Test func theCashuWalletIsBackedUpAndAnOlderCopyIsNotRestoredOverIt() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, alice) = try helper.aliceNode(in: folder)
        try alice.close()
        let store = try CashuDatabase(path: directory.cashu)
        try store.addMint(mint.url, now: 1)
        try store.saveKeysets([mint.keyset], mint: mint.url, now: 1)
        try take([1, 4], into: store, prefix: "a")

        let archive = try BackupMaker(directory: directory).collect(now: helper.clock.now())
        #expect(archive.entries.contains { $0.path == DataDirectory.Names.cashu })
        #expect(!archive.wallets.contains { $0.path == DataDirectory.Names.cashu })
        let older = try helper.seal(archive)
        try take([8], into: store, prefix: "b")
        try store.close()

        let refused = try #require(helper.restoreFailure(older, into: directory, force: true))
        #expect(refused.description.contains("1 Cashu token(s) taken or given"), "\(refused)")

        // Into an empty folder it comes back whole.
        let elsewhere = DataDirectory(explicit: folder.file("elsewhere"))
        #expect(helper.restoreFailure(older, into: elsewhere) == nil)
        let restored = try CashuDatabase(path: elsewhere.cashu)
        #expect(try restored.balances(now: nil).first?.atRisk == 5)
        try restored.close()
    }
}
