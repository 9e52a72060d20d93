import CashuStore
import Foundation
import NodeKit
import Posix
import Tender
import WalletStore

#if canImport(Glibc)
import Glibc
#endif

/// Puts a backup back into a data directory (Docs/BACKUP.md), all or nothing: every path
/// checked first, the files written into a new folder beside the target, the wallets opened
/// and checked there, then that folder renamed into place. A failure leaves the target as it
/// was and removes the new folder.
public struct BackupRestore: Sendable {
    public let directory: DataDirectory

    public init(directory: DataDirectory) { self.directory = directory }

    public struct Outcome: Sendable {
        public let archive: BackupArchive
        public let address: Address
        /// The restored wallets' domains, home first.
        public let domains: [Domain]
        /// Where the data directory's previous contents went (`--force`), or nil.
        public let previous: String?
        /// Why nothing told whether the backup is older than the wallet it copies (no wallet
        /// of its key in the data directory, or one that cannot be read), or nil: it was
        /// compared and is not.
        public let unchecked: String?
        /// The folder's own API token was kept in place of the backup's.
        public var tokenKept = false
    }

    /// Reads the backup at `path` and opens it with `passphrase`: a wrong passphrase, or any
    /// byte changed, added or cut, is refused before anything is written.
    public static func open(
        file path: String, passphrase: String
    ) throws(NodeError)
        -> BackupArchive
    {
        let limit = BackupArchive.maximumSize + BackupSeal.headerSize + BackupSeal.tagSize
        return try open(FileIO.read(path, limit: limit), passphrase: passphrase)
    }

    /// A backup file's bytes opened with `passphrase`.
    public static func open(
        _ bytes: [UInt8], passphrase: String
    ) throws(NodeError)
        -> BackupArchive
    {
        try BackupArchive.decode(BackupSeal.open(bytes, passphrase: passphrase))
    }

    /// Refuses a target that is a file, a folder with anything in it (unless `force`), or one
    /// whose wallets some process has open (`tender node`, another command): even with
    /// `force`, a node must be stopped first. Returns whether the folder has anything in it.
    @discardableResult
    public func checkTarget(force: Bool) throws(NodeError) -> Bool {
        guard let kind = try? DurableFile.fileKind(directory.path) else { return false }
        guard kind == S_IFDIR else {
            throw NodeError(.usage("\(directory.path) is a file, not a folder: give a folder"))
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard !names.isEmpty else { return false }
        guard force else {
            throw NodeError(
                .exists("\(directory.path) is not empty"), resolvedBy: .restoreElsewhereOrReplace)
        }
        if let open = directory.walletPaths().first(where: BackupDatabase.isOpen) {
            throw NodeError(
                .busy("\(open) is open: stop it before restoring over \(directory.path)"),
                resolvedBy: .stopWalletUsers)
        }
        return true
    }

    /// Restores `archive` into the data directory. `now` names the folder the previous
    /// contents are moved to (with `force`).
    public func restore(
        _ archive: BackupArchive, force: Bool, now: UInt64
    ) throws(NodeError) -> Outcome {
        try BackupPaths.check(archive)
        try checkTarget(force: force)
        let target = Self.trimmed(directory.path)
        let parent = DurableFile.folder(of: target)
        let name = String(target.split(separator: "/").last ?? "tender")
        do {
            try FileManager.default.createDirectory(
                atPath: parent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw NodeError(
                .io("cannot create the folder \(parent): \(error.localizedDescription)"))
        }
        let staging = try Self.makeFolder(parent + "/.\(name).restore-XXXXXX")
        do {
            let (address, domains) = try write(archive, into: staging)
            let unchecked = try refuseOlder(
                archive, of: address, staged: staging, over: target, now: now)
            // Again: a node may have started, or files come, while the backup was written.
            let occupied = try checkTarget(force: force)
            let tokenKept = try keepToken(of: target, in: staging)
            let aside = (parent == "." ? "" : parent + "/") + "\(name).before-restore-\(now)"
            let previous = try swap(staging, into: target, aside: aside, occupied: occupied)
            try? DurableFile.syncFolder(parent)
            var outcome = Outcome(
                archive: archive, address: address, domains: domains, previous: previous,
                unchecked: unchecked)
            outcome.tokenKept = tokenKept
            return outcome
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// Writes every file into `staging` and checks the wallets there: integrity, the key
    /// file's address (read from the archive), each domain wallet under its own domain's name.
    private func write(
        _ archive: BackupArchive, into staging: String
    ) throws(NodeError) -> (Address, [Domain]) {
        for entry in archive.entries {
            if let slash = entry.path.firstIndex(of: "/") {
                let folder = staging + "/" + entry.path[..<slash]
                do { _ = try retryingInterrupts("mkdir") { mkdir(folder, 0o700) } } catch {
                    guard error.code == SystemError.exists else {
                        throw NodeError(.io("cannot create \(folder): \(error.reason)"))
                    }
                }
            }
            // The owner keeps read and write: the node opens its databases for writing.
            let mode = mode_t(entry.mode & 0o777 | 0o600)
            do {
                try DurableFile.write(
                    entry.bytes, to: staging + "/" + entry.path, mode: mode, replacing: false)
            } catch {
                throw NodeError(.io("cannot write \(entry.path) in \(staging): \(error)"))
            }
        }
        let layout = DataDirectory(explicit: staging)
        let address: Address
        do { address = try archive.walletAddress() } catch {
            throw BackupError.malformed("its wallet-key.json is not a key file (\(error))")
        }
        var domains: [Domain] = []
        if archive.entries.contains(where: \.isCashu) {
            try BackupDatabase.check(staging + "/" + DataDirectory.Names.cashu)
        }
        for entry in archive.wallets {
            let path = staging + "/" + entry.path
            try BackupDatabase.check(path)
            let wallet = try Wallet.open(at: path)
            try wallet.close()
            guard wallet.address == address else {
                throw BackupError.malformed(
                    "\(entry.path) belongs to \(wallet.address), not to the key's \(address)")
            }
            let home = entry.path == DataDirectory.Names.homeWallet
            guard home || layout.database(for: wallet.domain) == path else {
                throw BackupError.malformed(
                    "\(entry.path) holds chain \(wallet.domain.chainID)'s wallet under another name"
                )
            }
            if home { domains.insert(wallet.domain, at: 0) } else { domains.append(wallet.domain) }
        }
        // Each file's own folder was synced as it was written (DurableFile.write); the folders
        // made in `staging` are names in it.
        do { try DurableFile.syncFolder(staging) } catch {
            throw NodeError(.io("cannot sync \(staging): \(error)"))
        }
        return (address, domains)
    }

    /// Refuses a backup older than the wallet it would replace (the same wallet, in `target`,
    /// knowing payments, spent coins, seen spends or counted spending the backup lacks):
    /// restored, it would make spent coins spendable again and forget what was paid. Nothing
    /// in `target` changes; the caller removes the staging folder.
    /// `address`: the restored wallets' (`write` checked each against the key file).
    /// Returns why it could not tell (see `Outcome.unchecked`), or nil once compared.
    private func refuseOlder(
        _ archive: BackupArchive, of address: Address, staged staging: String,
        over target: String, now: UInt64
    ) throws(NodeError) -> String? {
        var lead = WalletLead()
        var compared = false
        var unreadable: [String] = []
        for entry in archive.wallets {
            let current = target + "/" + entry.path
            guard FileManager.default.fileExists(atPath: current) else { continue }
            // Another wallet (another key) is no older copy: `--force` moves it aside.
            let existing: Wallet
            do { existing = try Wallet.open(at: current) } catch {
                unreadable.append("\(entry.path): \(error)")
                continue
            }
            try existing.close()
            guard existing.address == address else { continue }
            compared = true
            lead.add(
                try BackupDatabase.lead(of: current, over: staging + "/" + entry.path, now: now))
        }
        let cashu = try cashuLead(of: archive, staged: staging, over: target)
        guard !lead.isEmpty || !cashu.isEmpty else {
            if compared { return nil }
            return unreadable.isEmpty
                ? "\(target) held no wallet of \(address) to compare it with"
                : "the wallet in \(target) could not be read (\(unreadable.joined(separator: "; ")))"
        }
        var facts: [String] = []
        if lead.payments > 0 { facts.append("\(lead.payments) payment(s) made or moved on") }
        if lead.received > 0 { facts.append("\(lead.received) payment(s) received") }
        if lead.coins > 0 { facts.append("\(lead.coins) coin(s) spent") }
        if lead.seen > 0 { facts.append("\(lead.seen) coin(s) seen spent") }
        if lead.spending > 0 { facts.append("\(lead.spending) payment(s) counted against limits") }
        if lead.requests > 0 { facts.append("\(lead.requests) request(s) issued, payable still") }
        if cashu.payments > 0 { facts.append("\(cashu.payments) Cashu token(s) taken or given") }
        if cashu.proofs > 0 { facts.append("\(cashu.proofs) Cashu proof(s) given, swapped or new") }
        throw NodeError(
            .exists(
                "the wallet in \(target) is newer than this backup (taken \(UTCTime.format(archive.created))): since then it has \(facts.joined(separator: ", ")). Restored, the backup would make spent coins spendable again and take paid payments twice, so it is not restored over it"
            ),
            note:
                "restore it into an empty folder only to read it; to move this wallet, back it up now and restore that"
        )
    }

    /// What the Cashu wallet in `target` knows that the backup's does not (all it holds, when
    /// the backup has none): restored, the backup would forget it, or give proofs again.
    private func cashuLead(
        of archive: BackupArchive, staged staging: String, over target: String
    ) throws(NodeError) -> CashuLead {
        let current = target + "/" + DataDirectory.Names.cashu
        guard FileManager.default.fileExists(atPath: current) else { return CashuLead() }
        let copy =
            archive.entries.contains(where: \.isCashu)
            ? staging + "/" + DataDirectory.Names.cashu : nil
        do { return try CashuDatabase.lead(of: current, over: copy) } catch {
            throw NodeError(
                .io("cannot compare the Cashu wallet in \(target) with the backup's: \(error)"))
        }
    }

    /// The API token `target` holds now goes into the restored folder instead of the
    /// backup's: a token rotated since the backup must not come back.
    /// Whether there was one to keep.
    private func keepToken(of target: String, in staging: String) throws(NodeError) -> Bool {
        let name = "/" + DataDirectory.Names.apiToken
        guard FileManager.default.fileExists(atPath: target + name) else { return false }
        let token = try FileIO.read(target + name, limit: 4096, holding: .setting)
        do {
            try DurableFile.write(token, to: staging + name, mode: 0o600, replacing: true)
        } catch { throw NodeError(.io("cannot keep the API token of \(target): \(error)")) }
        return true
    }

    /// Renames `staging` to `target`. A target with contents (`occupied`) is first renamed to
    /// `aside` (and renamed back if the second rename fails); an empty one is replaced in one
    /// rename.
    private func swap(
        _ staging: String, into target: String, aside: String, occupied: Bool
    ) throws(NodeError) -> String? {
        guard occupied else {
            do { try Self.move(staging, to: target) } catch {
                throw NodeError(
                    .io("cannot move the restored folder to \(target): \(error.reason)"))
            }
            return nil
        }
        var keptAt = aside
        var attempt = 1
        while FileManager.default.fileExists(atPath: keptAt) {
            attempt += 1
            keptAt = "\(aside)-\(attempt)"
        }
        do { try Self.move(target, to: keptAt) } catch {
            throw NodeError(.io("cannot move \(target) aside to \(keptAt): \(error.reason)"))
        }
        do { try Self.move(staging, to: target) } catch {
            var back = ""
            do { try Self.move(keptAt, to: target) } catch {
                back = "; the previous contents are in \(keptAt)"
            }
            throw NodeError(
                .io("cannot move the restored folder to \(target): \(error.reason)\(back)"))
        }
        return keptAt
    }

    private static func move(_ from: String, to: String) throws(SystemError) {
        _ = try retryingInterrupts("rename") { rename(from, to) }
    }

    static func makeFolder(_ template: String) throws(NodeError) -> String {
        var bytes = Array(template.utf8CString)
        guard let made = bytes.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            let reason = SystemError("mkdtemp", code: errno).reason
            throw NodeError(.io("cannot create a folder like \(template): \(reason)"))
        }
        return String(cString: made)
    }

    /// The path without trailing slashes (`/srv/tender/` names the folder `tender`).
    static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
