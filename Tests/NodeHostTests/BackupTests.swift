import Foundation
import GRDB
import Keystore
import NodeHost
import NodeKit
import Posix
import Secp256k1
import Synchronization
import Tender
import TenderTestSupport
import Testing

/// `tender backup` and `tender restore` (Docs/BACKUP.md): a node's keys, wallets and
/// settings out to one sealed file and back, consistent while the wallet is written, and
/// nothing written from a file that is not exactly what was sealed.
@Suite struct BackupTests {
    let world = World()
    let clock = FixedClock(World().now)
    let passphrase = "correct horse battery staple"
    /// Cheap scrypt: the tests open hundreds of backups.
    let cost = try! ScryptCost(n: 16)

    /// A data directory like `tender init` makes, for Alice: key file, home wallet trusting
    /// the world's issuer, a node.toml and a session key.
    func aliceNode(in folder: TemporaryDirectory) throws -> (DataDirectory, Wallet) {
        let directory = DataDirectory(explicit: folder.file("alice"))
        try directory.create()
        try KeyFile(encrypting: world.aliceKey, passphrase: passphrase, cost: cost)
            .write(to: directory.walletKey)
        let wallet = try Wallet.create(
            at: directory.database, address: world.alice, domain: world.domain)
        try wallet.trust(world.issuer, now: clock.now())
        try writeFile(
            Array("[api]\nlisten = \"127.0.0.1:9999\"\n".utf8), to: directory.path + "/node.toml",
            mode: 0o644)
        try writeFile([UInt8](repeating: 7, count: 32), to: directory.sessionKey, mode: 0o600)
        return (directory, wallet)
    }

    func bobWallet(in folder: TemporaryDirectory) throws -> Wallet {
        let wallet = try Wallet.create(
            at: folder.file("bob.sqlite"), address: world.bob, domain: world.domain)
        try wallet.trust(world.issuer, now: clock.now())
        return wallet
    }

    /// A note of `amount` for `owner` with its own serial, paid in by the issuer.
    func issue(_ amount: Amount, serial: UInt32, to wallet: Wallet, key: PrivateKey) throws {
        var serialBytes = [UInt8](repeating: 0x5A, count: 32)
        withUnsafeBytes(of: serial.bigEndian) { serialBytes.replaceSubrange(28..<32, with: $0) }
        let note = try SignedNote(
            signing: Note(
                serial: try Bytes32(serialBytes), issuer: world.issuer, asset: .zero,
                amount: amount, owner: wallet.address, expiry: world.expiry),
            with: world.issuerKey, in: world.domain)
        let payment = world.payment(
            ProofBundle(notes: [note]), to: wallet.address, amount: amount,
            requestID: try Bytes32(serialBytes.reversed()))
        _ = try wallet.receive(
            Envelope(domain: world.domain, message: .payment(payment)).encoded(), key: key,
            now: clock.now())
    }

    /// `payer` pays `payee` and records the receipt: prepared, handed over, received, spent.
    func pay(
        _ amount: Amount, from payer: Wallet, _ payerKey: PrivateKey, to payee: Wallet,
        _ payeeKey: PrivateKey, id: UInt32, memo: String = "tea"
    ) throws {
        var bytes = [UInt8](repeating: 0xC0, count: 32)
        withUnsafeBytes(of: id.bigEndian) { bytes.replaceSubrange(28..<32, with: $0) }
        let requestID = try Bytes32(bytes)
        let prepared = try payer.preparePayment(
            to: payee.address, amount: amount, asset: .zero, memo: memo, requestID: requestID,
            key: payerKey, now: clock.now())
        try payer.handedOver(requestID, now: clock.now())
        let receipt = try payee.receive(prepared.envelope, key: payeeKey, now: clock.now())
        _ = try payer.recordReceipt(receipt.receipt, now: clock.now())
    }

    func seal(_ archive: BackupArchive) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return try BackupSeal.seal(
            archive.encoded(), passphrase: passphrase, cost: cost, using: &generator)
    }

    /// Opens `bytes` and restores them into `directory`; the error, or nil on success.
    func restoreFailure(
        _ bytes: [UInt8], into directory: DataDirectory, passphrase: String? = nil,
        force: Bool = false
    ) -> NodeError? {
        do {
            let archive = try BackupRestore.open(bytes, passphrase: passphrase ?? self.passphrase)
            _ = try BackupRestore(directory: directory).restore(
                archive, force: force, now: clock.now())
            return nil
        } catch { return error }
    }

    // MARK: Round trip

    @Test func aRestoredNodeHasTheSameBalancesHistoryRequestsAndAddress() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, alice) = try aliceNode(in: folder)
        let bob = try bobWallet(in: folder)
        try issue(500, serial: 1, to: alice, key: world.aliceKey)
        try issue(300, serial: 2, to: alice, key: world.aliceKey)
        try issue(200, serial: 3, to: bob, key: world.bobKey)
        try pay(120, from: alice, world.aliceKey, to: bob, world.bobKey, id: 1)
        try pay(45, from: bob, world.bobKey, to: alice, world.aliceKey, id: 2, memo: "change")
        let request = try alice.issueRequest(
            amount: 250, asset: .zero, memo: "stall", lifetime: 3600, now: clock.now())
        // A second chain's wallet (wallets/), as `tender receive` makes one.
        let otherDomain = Domain(chainID: 10, vault: world.issuer)
        try FileManager.default.createDirectory(
            atPath: directory.domainWallets, withIntermediateDirectories: false)
        try Wallet.create(
            at: directory.database(for: otherDomain), address: world.alice, domain: otherDomain
        ).close()

        let maker = BackupMaker(directory: directory)
        try maker.checkPassphrase(passphrase)
        let output = folder.file("alice.backup")
        try maker.checkOutside(output)
        let archive = try maker.collect(now: clock.now())
        try maker.write(archive, to: output, passphrase: passphrase, cost: cost)
        #expect(try DurableFile.permissions(output) == 0o600)
        #expect(
            archive.entries.map(\.path) == [
                "wallet-key.json", "session-key", "node.toml", "wallet.sqlite",
                "wallets/10-\(world.issuer.checksummed).sqlite",
            ])
        #expect(archive.wallets.count == 2 && archive.address == world.alice)
        // The snapshot's scratch folder is gone.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .allSatisfy { !$0.hasPrefix(".backup-") })

        let target = DataDirectory(explicit: folder.file("restored/node"))
        let opened = try BackupRestore.open(file: output, passphrase: passphrase)
        #expect(opened == archive)
        let outcome = try BackupRestore(directory: target).restore(
            opened, force: false, now: clock.now())
        #expect(outcome.address == world.alice && outcome.previous == nil)
        #expect(outcome.domains == [world.domain, otherDomain])
        #expect(
            try NodeHost(dataDir: target.path).openWallets().all.map(\.domain)
                == [world.domain, otherDomain])

        let restored = try NodeHost(dataDir: target.path).openWallet()
        #expect(restored.address == alice.address && restored.domain == alice.domain)
        #expect(try restored.balances(now: clock.now()) == alice.balances(now: clock.now()))
        #expect(try restored.balances(now: clock.now())[.zero]?.spendable == 725)
        let incoming = { (wallet: Wallet) throws in
            try wallet.incomingPayments().map { "\($0.requestID.hex) \($0.amount) \($0.memo)" }
        }
        let outgoing = { (wallet: Wallet) throws in
            try wallet.outgoingPayments().map {
                "\($0.requestID.hex) \($0.amount) \($0.state.rawValue) \($0.envelope)"
            }
        }
        #expect(try incoming(restored) == incoming(alice) && incoming(restored).count == 3)
        #expect(try outgoing(restored) == outgoing(alice) && outgoing(restored).count == 1)
        #expect(try restored.ownRequest(request.id) == request)
        #expect(try restored.trustedIssuers() == [world.issuer])
        // Files as they were, modes too; the key opens with the same passphrase.
        for name in ["node.toml", "session-key", "wallet-key.json"] {
            #expect(
                try DurableFile.read(target.path + "/" + name, limit: 1 << 20)
                    == DurableFile.read(directory.path + "/" + name, limit: 1 << 20))
            #expect(
                try DurableFile.permissions(target.path + "/" + name)
                    == DurableFile.permissions(directory.path + "/" + name))
        }
        let key = try KeyVault(
            directory: target,
            passphrases: PassphraseSource(environment: ["TENDER_PASSPHRASE_FILE": passFile(folder)])
        ).walletKey()
        #expect(Address(publicKey: key.publicKey) == world.alice)
        #expect(try DurableFile.permissions(target.path) & 0o077 == 0)
        // Nothing left beside the restored folder.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.file("restored"))
                == ["node"])
    }

    func passFile(_ folder: TemporaryDirectory) throws -> String {
        let path = folder.file("passphrase")
        if !FileManager.default.fileExists(atPath: path) {
            try writeFile(Array((passphrase + "\n").utf8), to: path, mode: 0o600)
        }
        return path
    }

    @Test func theBackupMustBeSealedWithTheWalletsPassphraseAndKeptOutsideItsFolder() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, _) = try aliceNode(in: folder)
        let maker = BackupMaker(directory: directory)
        #expect(throws: NodeError.self) { try maker.checkPassphrase("not the passphrase") }
        // Inside however it is named: through `..`, or through a link from outside.
        try FileManager.default.createDirectory(
            atPath: directory.domainWallets, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: folder.file("link"), withDestinationPath: directory.path)
        for inside in [
            directory.path + "/x.backup", directory.domainWallets + "/../y.backup",
            directory.domainWallets + "/z.backup", folder.file("link/w.backup"),
        ] {
            #expect(throws: NodeError.self, "\(inside)") { try maker.checkOutside(inside) }
        }
        try maker.checkOutside(folder.file("fine.backup"))
        // An existing file is never replaced.
        let output = folder.file("taken")
        try writeFile(Array("mine".utf8), to: output, mode: 0o600)
        let archive = try maker.collect(now: clock.now())
        #expect(throws: NodeError.self) {
            try maker.write(archive, to: output, passphrase: passphrase, cost: cost)
        }
        #expect(try DurableFile.read(output, limit: 100) == Array("mine".utf8))
    }

    // MARK: Consistency while writing

    /// A writer keeps receiving notes and paying Bob while backups are taken: every
    /// snapshot restores, passes the integrity check, and balances against its own history
    /// (spendable + pending = received - paid), so it holds whole transactions only. The
    /// writer runs in rounds: backups are taken while a round writes (whatever interleaving
    /// the machine gives) and once between rounds (a state known exactly), so every run sees
    /// the wallet change however the scheduler treats the writer.
    @Test func aBackupTakenWhileTheWalletIsWrittenIsConsistent() async throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, alice) = try aliceNode(in: folder)
        let bob = try bobWallet(in: folder)
        try issue(1000, serial: 0, to: alice, key: world.aliceKey)
        let progress = WriterProgress()
        let rounds = 6
        let stepsPerRound = 10
        var taken: [(before: Int, after: Int, archive: BackupArchive)] = []
        let maker = BackupMaker(directory: directory)
        func takeBackup() throws {
            let before = progress.step.load(ordering: .sequentiallyConsistent)
            let archive = try maker.collect(now: clock.now())
            taken.append((before, progress.step.load(ordering: .sequentiallyConsistent), archive))
        }
        for round in 0..<rounds {
            let steps = (round * stepsPerRound + 1)...((round + 1) * stepsPerRound)
            progress.done.store(false, ordering: .sequentiallyConsistent)
            let writer = Task.detached {
                defer { progress.done.store(true, ordering: .sequentiallyConsistent) }
                let helper = BackupTests()  // the same world and clock, made on this side
                for step in steps {
                    try helper.issue(
                        10, serial: UInt32(step), to: alice, key: helper.world.aliceKey)
                    if step % 2 == 0 {
                        try helper.pay(
                            7, from: alice, helper.world.aliceKey, to: bob, helper.world.bobKey,
                            id: UInt32(step))
                    }
                    progress.step.store(step, ordering: .sequentiallyConsistent)
                }
            }
            // While the round writes: as many as fit (at most 20), each checked below.
            for _ in 0..<20 where !progress.done.load(ordering: .sequentiallyConsistent) {
                try takeBackup()
                await Task.yield()
            }
            try await writer.value
            try takeBackup()  // between rounds: exactly the round's last step
            #expect(taken.last!.before == steps.upperBound && taken.last!.after == steps.upperBound)
        }
        var seen = Set<Int>()
        for (index, snapshot) in taken.enumerated() {
            let notes = try restoredWallet(snapshot.archive, into: folder.file("restored-\(index)"))
                .notes
            // A step's note may be in before its payment is (progress counts whole steps).
            #expect(notes >= snapshot.before && notes <= snapshot.after + 1, "backup \(index)")
            seen.insert(notes)
        }
        #expect(seen.isSuperset(of: (1...rounds).map { $0 * stepsPerRound }))
    }

    /// A write transaction held open while the backup is taken (a second connection, as the
    /// node writing while `tender backup` runs): the backup holds the wallet as it was before
    /// it, and is not held up by it.
    @Test func aBackupLeavesOutATransactionNotYetCommitted() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, alice) = try aliceNode(in: folder)
        let bob = try bobWallet(in: folder)
        try issue(500, serial: 1, to: alice, key: world.aliceKey)
        try pay(120, from: alice, world.aliceKey, to: bob, world.bobKey, id: 1)
        let writer = try DatabaseQueue(path: directory.database)
        var archive: BackupArchive?
        try writer.inTransaction(.immediate) { db in
            try db.execute(sql: "UPDATE coins SET state = 'spent' WHERE state = 'unspent'")
            archive = try BackupMaker(directory: directory).collect(now: clock.now())
            return .rollback
        }
        try writer.close()
        let restored = try restoredWallet(try #require(archive), into: folder.file("restored"))
        #expect(restored.notes == 0 && restored.spendable == 380)
        try alice.close()
    }

    /// Restores `archive` into `path`, checks that the wallet balances against its own history
    /// (spendable + pending = received - paid) and returns how many notes it received after
    /// the first, and its spendable amount.
    func restoredWallet(
        _ archive: BackupArchive, into path: String
    ) throws -> (notes: Int, spendable: Amount) {
        let target = DataDirectory(explicit: path)
        _ = try BackupRestore(directory: target).restore(archive, force: false, now: clock.now())
        let wallet = try Wallet.open(at: target.database)
        defer { try? wallet.close() }
        let received = try wallet.incomingPayments().reduce(Amount(0)) { $0 + $1.amount }
        let paid = try wallet.outgoingPayments().filter { $0.state == .spent }
            .reduce(Amount(0)) { $0 + $1.amount }
        let balance = try #require(try wallet.balances(now: clock.now())[.zero])
        #expect(balance.spendable + balance.pending == received - paid, "\(path)")
        return (try wallet.incomingPayments().count - 1, balance.spendable)
    }

    // MARK: Files that are not what was sealed

    @Test func aWrongPassphraseIsRefusedAndNothingIsWritten() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, _) = try aliceNode(in: folder)
        let bytes = try seal(try BackupMaker(directory: directory).collect(now: clock.now()))
        let target = DataDirectory(explicit: folder.file("restored"))
        let error = try #require(restoreFailure(bytes, into: target, passphrase: "Correct horse"))
        #expect(error.code == "passphrase")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(restoreFailure(bytes, into: target) == nil)
    }

    /// Every bit of the header and the tag, and a sample of the ciphertext's, flipped one at
    /// a time: each file is refused before anything is written.
    @Test func everySingleBitFlipIsRefused() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, _) = try aliceNode(in: folder)
        let bytes = try seal(try BackupMaker(directory: directory).collect(now: clock.now()))
        let target = DataDirectory(explicit: folder.file("restored"))
        var positions = Array(0..<BackupSeal.headerSize)  // the header, bound as data
        positions += (bytes.count - 16)..<bytes.count  // the tag
        positions += BackupSeal.headerSize..<(BackupSeal.headerSize + 64)
        positions += stride(from: BackupSeal.headerSize + 64, to: bytes.count - 16, by: 97)
        var generator = SeededGenerator(seed: 0xB4C6)
        for position in positions {
            let bits =
                position < BackupSeal.headerSize || position >= bytes.count - 16
                ? Array(0..<8) : [Int(generator.next() % 8)]
            for bit in bits {
                var flipped = bytes
                flipped[position] ^= 1 << bit
                let error = restoreFailure(flipped, into: target)
                #expect(error != nil, "byte \(position) bit \(bit) was accepted")
                #expect(["passphrase", "malformed"].contains(error?.code ?? ""))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(positions.count > 1_000)
        #expect(restoreFailure(bytes, into: target) == nil)
    }

    @Test func aTruncatedOrExtendedFileIsRefused() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, _) = try aliceNode(in: folder)
        let bytes = try seal(try BackupMaker(directory: directory).collect(now: clock.now()))
        let target = DataDirectory(explicit: folder.file("restored"))
        let header = BackupSeal.headerSize
        for length in [
            0, 7, 8, 60, header, header + 15, header + 16, bytes.count / 2, bytes.count - 1,
        ] {
            let error = restoreFailure(Array(bytes.prefix(length)), into: target)
            #expect(error?.code == "malformed", "cut to \(length) bytes")
        }
        #expect(restoreFailure(bytes + [0], into: target)?.code == "malformed")
        // From the file, as the command reads it.
        let cut = folder.file("cut.backup")
        try writeFile(Array(bytes.dropLast(100)), to: cut, mode: 0o600)
        #expect(throws: NodeError.self) {
            try BackupRestore.open(file: cut, passphrase: passphrase)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// Archives sealed with the right passphrase by the same code, with a path that leaves
    /// the data directory (or is otherwise not a plain name in it): refused, nothing written.
    @Test func aPathOutsideTheDataDirectoryIsRefused() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, _) = try aliceNode(in: folder)
        let good = try BackupMaker(directory: directory).collect(now: clock.now())
        let target = DataDirectory(explicit: folder.file("restored/node"))
        let evil = [
            "../evil", "../../tmp/evil", "/tmp/evil", "wallets/../../evil", "./evil", "a//b",
            "wallets/", "", "a/b/c", "evil\u{0}", "ev\nil", "..", "wallets\\..\\evil",
            "wallet.sqlite-wal",
        ]
        for path in evil {
            let archive = BackupArchive(
                created: good.created,
                entries: good.entries + [BackupEntry(path: path, mode: 0o644, bytes: [1])])
            let error = restoreFailure(try seal(archive), into: target)
            #expect(error?.code == "malformed", "'\(path)' was accepted")
        }
        // Twice the same name, a file where a folder goes, the key or the wallet missing.
        let wallet = good.entries.first { $0.path == "wallet.sqlite" }!
        let broken = [
            good.entries + [wallet],
            good.entries + [
                BackupEntry(path: "wallets", mode: 0o600, bytes: [1]),
                BackupEntry(path: "wallets/x.sqlite", mode: 0o600, bytes: wallet.bytes),
            ],
            good.entries.filter { $0.path != "wallet-key.json" },
            good.entries.filter { $0.path != "wallet.sqlite" },
            // A wallet under another domain's name.
            good.entries + [
                BackupEntry(path: "wallets/1-0x00.sqlite", mode: 0o600, bytes: wallet.bytes)
            ],
        ]
        for entries in broken {
            let error = restoreFailure(
                try seal(BackupArchive(created: 0, entries: entries)), into: target)
            #expect(error?.code == "malformed")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("restored/node")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("evil")))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.file("restored")).isEmpty)
        #expect(restoreFailure(try seal(good), into: target) == nil)
    }

    // MARK: The target

    @Test func aFolderWithContentsNeedsForceAndAnOpenWalletIsNeverReplaced() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, alice) = try aliceNode(in: folder)
        try issue(500, serial: 1, to: alice, key: world.aliceKey)
        let bytes = try seal(try BackupMaker(directory: directory).collect(now: clock.now()))
        let archive = try BackupRestore.open(bytes, passphrase: passphrase)

        // Another node's folder: refused without --force, untouched.
        let target = DataDirectory(explicit: folder.file("other"))
        try target.create()
        try writeFile(Array("keep me".utf8), to: target.path + "/notes.txt", mode: 0o600)
        let refused = try #require(restoreFailure(bytes, into: target))
        #expect(refused.code == "exists")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["notes.txt"])

        // An empty folder is fine without it.
        let empty = DataDirectory(explicit: folder.file("empty"))
        try empty.create()
        #expect(restoreFailure(bytes, into: empty) == nil)
        #expect(try Wallet.open(at: empty.database).address == world.alice)

        // The node's own folder while its wallet is open: refused even with --force.
        let busy = try #require(restoreFailure(bytes, into: directory, force: true))
        #expect(busy.code == "busy")
        try alice.close()
        // With --force and nothing open: replaced, the old contents kept aside.
        let outcome = try BackupRestore(directory: target).restore(
            archive, force: true, now: clock.now())
        let previous = try #require(outcome.previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: previous) == ["notes.txt"])
        // No wallet there to compare the backup with: said, for the CLI to warn.
        #expect(outcome.unchecked?.contains("held no wallet of") == true)
        #expect(
            try Wallet.open(at: target.database).balances(now: clock.now())[.zero]?.spendable == 500
        )
    }

    /// An older backup restored over the wallet it came from would make the coins paid since
    /// spendable again, forget the payments, the seen spends and the limits' ledger: refused,
    /// naming what it would forget, and the wallet left as it was. A backup as new as the
    /// wallet restores over it, and the API token rotated since stays the one in use.
    @Test func anOlderBackupIsNotRestoredOverItsNewerWallet() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, alice) = try aliceNode(in: folder)
        let bob = try bobWallet(in: folder)
        try issue(500, serial: 1, to: alice, key: world.aliceKey)
        try writeFile(
            Array("old-token".utf8), to: directory.path + "/" + DataDirectory.Names.apiToken,
            mode: 0o600)
        let older = try seal(try BackupMaker(directory: directory).collect(now: clock.now()))
        try pay(200, from: alice, world.aliceKey, to: bob, world.bobKey, id: 1)
        try issue(50, serial: 2, to: alice, key: world.aliceKey)
        try alice.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.database))

        let refused = try #require(restoreFailure(older, into: directory, force: true))
        #expect(refused.code == "exists")
        #expect(refused.description.contains("newer than this backup"), "\(refused)")
        #expect(refused.description.contains("1 payment(s) made or moved on"), "\(refused)")
        #expect(refused.description.contains("coin(s) spent"), "\(refused)")
        #expect(refused.description.contains("1 payment(s) received"), "\(refused)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.database)) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy {
                !$0.contains("restore")
            })

        let current = try seal(try BackupMaker(directory: directory).collect(now: clock.now()))
        try writeFile(
            Array("rotated-token".utf8), to: directory.path + "/" + DataDirectory.Names.apiToken,
            mode: 0o600)
        #expect(restoreFailure(current, into: directory, force: true) == nil)
        #expect(
            try String(
                contentsOfFile: directory.path + "/" + DataDirectory.Names.apiToken, encoding: .utf8
            ) == "rotated-token")
        let restored = try Wallet.open(at: directory.database)
        #expect(restored.address == world.alice)
        #expect(try restored.balances(now: clock.now())[.zero]?.spendable == 350)
    }

    /// A request issued since the backup, payable still, makes the backup older too: restored,
    /// a payment for it would be taken as one not asked for, its terms unchecked.
    @Test func aBackupOlderThanAPayableRequestIsNotRestoredOverItsWallet() throws {
        let folder = try TemporaryDirectory("tender-backup")
        defer { folder.remove() }
        let (directory, alice) = try aliceNode(in: folder)
        let older = try seal(try BackupMaker(directory: directory).collect(now: clock.now()))
        _ = try alice.issueRequest(
            amount: 10, asset: .zero, memo: "tea", lifetime: 900, now: clock.now())
        try alice.close()
        let refused = try #require(restoreFailure(older, into: directory, force: true))
        #expect(refused.description.contains("1 request(s) issued, payable still"), "\(refused)")
    }

    func writeFile(_ bytes: [UInt8], to path: String, mode: mode_t) throws {
        try DurableFile.write(bytes, to: path, mode: mode)
    }
}

/// How far the concurrent writer got: whole steps done, and whether it has finished.
final class WriterProgress: Sendable {
    let step = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
}
