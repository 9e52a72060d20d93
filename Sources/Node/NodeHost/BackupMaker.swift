import Foundation
import Keystore
import NodeKit
import Posix
import Tender

#if canImport(Glibc)
import Glibc
#endif

/// Takes a data directory's backup (Docs/BACKUP.md): the wallet key and the settings files
/// as they are, each wallet database as a consistent snapshot, sealed under the wallet's
/// passphrase into one file written atomically with mode 0600.
public struct BackupMaker: Sendable {
    public let directory: DataDirectory

    public init(directory: DataDirectory) { self.directory = directory }

    /// The largest key or settings file taken (they are a few hundred bytes).
    static let maximumFileSize = 1 << 20

    /// Refuses a data directory without a wallet (its home database and its key file).
    public func checkWallet() throws(NodeError) {
        guard directory.exists, FileManager.default.fileExists(atPath: directory.walletKey)
        else { throw directory.noWallet }
    }

    /// Refuses a passphrase that does not open the wallet key: the backup is sealed with it,
    /// and one that differs from the wallet's would be a second secret to lose. Returns the
    /// wallet's address.
    @discardableResult
    public func checkPassphrase(_ passphrase: String) throws(NodeError) -> Address {
        let file: KeyFile
        do { file = try KeyFile.load(from: directory.walletKey) } catch {
            throw error.kind == .fileMissing ? directory.noWallet : NodeError(.key(error.message))
        }
        do { return Address(publicKey: try file.decrypt(passphrase: passphrase).publicKey) } catch {
            if error.kind == .wrongPassphrase {
                throw NodeError(
                    .passphrase(
                        "the passphrase does not open this wallet's key; a backup is sealed with the wallet's passphrase"
                    ))
            }
            throw NodeError(.key(error.message))
        }
    }

    /// Refuses an output inside the data directory: a backup beside what it saves is lost
    /// with it (a failed disk, a removed folder), and a restore would move it aside with the
    /// rest.
    public func checkOutside(_ output: String) throws(NodeError) {
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        guard let data = Self.resolved(directory.path), let target = Self.resolved(folder) else {
            return
        }
        if target == data || target.hasPrefix(data == "/" ? "/" : data + "/") {
            throw NodeError(
                .usage(
                    "\(output) is inside the data directory \(directory.path): keep the backup elsewhere (another disk), where losing the node does not lose it too"
                ))
        }
    }

    /// Everything the backup holds, read now: files as they are, databases through SQLite's
    /// backup API (each consistent on its own, while the node or another command writes).
    public func collect(now: UInt64) throws(NodeError) -> BackupArchive {
        try checkWallet()
        var entries = [try file(DataDirectory.Names.walletKey)]
        for name in BackupPaths.optionalFiles
        where FileManager.default.fileExists(atPath: directory.path + "/" + name) {
            entries.append(try file(name))
        }
        let cashu =
            FileManager.default.fileExists(atPath: directory.cashu)
            ? [DataDirectory.Names.cashu] : []
        let wallets = directory.walletNames() + cashu
        let scratch = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var total = entries.reduce(0) { $0 + $1.bytes.count }
        for (index, name) in wallets.enumerated() {
            let path = directory.path + "/" + name
            let bytes = try BackupDatabase.snapshot(of: path, scratch: scratch + "/\(index).sqlite")
            total += bytes.count
            guard total <= BackupArchive.maximumSize else {
                throw NodeError(
                    .io(
                        "the wallets exceed what a backup holds (\(BackupArchive.maximumSize >> 20) MiB)"
                    ))
            }
            entries.append(BackupEntry(path: name, mode: try mode(of: path), bytes: bytes))
        }
        return BackupArchive(created: now, entries: entries)
    }

    /// Seals `archive` and writes it to `output` (0600, never over an existing file).
    /// Returns the file's size in bytes.
    @discardableResult
    public func write(
        _ archive: BackupArchive, to output: String, passphrase: String,
        cost: ScryptCost = .standard
    ) throws(NodeError) -> Int {
        var generator = SystemRandomNumberGenerator()
        let sealed = try BackupSeal.seal(
            archive.encoded(), passphrase: passphrase, cost: cost, using: &generator)
        try FileIO.writeAtomically(sealed, to: output, mode: 0o600, exclusive: true)
        return sealed.count
    }

    /// The path with every link and `..` resolved, or nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func file(_ name: String) throws(NodeError) -> BackupEntry {
        let path = directory.path + "/" + name
        let bytes: [UInt8]?
        do { bytes = try DurableFile.read(path, limit: Self.maximumFileSize) } catch {
            throw NodeError(.io("cannot read \(path): \(FileIO.explain(error))"))
        }
        guard let bytes else {
            throw NodeError(.io("\(path) is larger than \(Self.maximumFileSize >> 20) MiB"))
        }
        return BackupEntry(path: name, mode: try mode(of: path), bytes: bytes)
    }

    private func mode(of path: String) throws(NodeError) -> UInt32 {
        do { return UInt32(try DurableFile.permissions(path) & 0o777) } catch {
            throw NodeError(.io("cannot read \(path): \(FileIO.explain(error))"))
        }
    }

    /// A private folder in the data directory for the databases' copies: they hold what the
    /// data directory already holds, so they stay where it is kept (0700), not in /tmp.
    private func scratchFolder() throws(NodeError) -> String {
        try BackupRestore.makeFolder(directory.path + "/.backup-XXXXXX")
    }
}
