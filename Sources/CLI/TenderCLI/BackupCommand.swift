import ArgumentParser
import Foundation
import NodeHost
import NodeKit
import Tender

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write the node's keys, wallets and settings to one encrypted file.",
        discussion: """
            The wallet key and the settings files as they are, each wallet database as a \
            consistent snapshot (SQLite's backup API: safe while `tender node` or another \
            command runs), sealed with the wallet's passphrase (scrypt, ChaCha20-Poly1305) \
            into FILE, mode 0600. FILE must not exist and must be outside the data \
            directory. Docs/BACKUP.md describes the format.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("out"), help: "The backup file to write.")
    var out: String

    func run() throws {
        try guarded {
            let maker = BackupMaker(directory: global.directory)
            try FileIO.checkWritable(out)
            try maker.checkOutside(out)
            try maker.checkWallet()
            let passphrase = try global.keys.passphrases.read(
                purpose: "the wallet (seals the backup)")
            let address = try maker.checkPassphrase(passphrase)
            let archive = try maker.collect(now: global.clock.now())
            let size = try maker.write(archive, to: out, passphrase: passphrase)
            BackupReport(archive: archive, address: address, file: out, size: size)
                .print(json: output.json)
        }
    }
}

/// What a backup holds, as text or JSON: shared by `backup` and `restore`.
struct BackupReport {
    let archive: BackupArchive
    /// The wallet's, as the command found it (the key file's, checked or restored).
    let address: Address
    let file: String
    let size: Int?
    var dataDir: String? = nil
    var previous: String? = nil
    /// A restore that could not compare the backup with the wallet it copies: why.
    var unchecked: String? = nil
    /// A restore that kept the folder's own API token, not the backup's.
    var tokenKept = false

    func print(json: Bool) {
        if json {
            var object: [String: Any] = [
                "file": file, "created": archive.created, "wallets": archive.wallets.count,
                "files": archive.entries.map { entry in
                    var file: [String: Any] = [
                        "path": entry.path, "size": entry.bytes.count, "mode": Int(entry.mode),
                    ]
                    if kept(entry) { file["kept"] = "the folder's own, not the backup's" }
                    return file
                },
            ]
            object["address"] = address.checksummed
            object["size"] = size
            object["dataDir"] = dataDir
            object["previous"] = previous
            object["unchecked"] = unchecked
            try? printJSON(object)
            warnUnchecked()
            return
        }
        let who = " of \(address)"
        if let dataDir {
            Swift.print("Restored the backup\(who) from \(file) into \(dataDir)")
        } else {
            Swift.print("Backup\(who) written to \(file) (\(size ?? 0) bytes, mode 0600)")
        }
        for entry in archive.entries {
            let kind =
                entry.isWallet
                ? "  wallet, integrity checked"
                : kept(entry)
                    ? "  not restored: the folder's own token kept (the API's clients keep working)"
                    : ""
            Swift.print("  \(entry.path)  \(entry.bytes.count) bytes\(kind)")
        }
        let wallets = archive.wallets.count
        Swift.print(
            "\(archive.entries.count) files, \(wallets) wallet\(wallets == 1 ? "" : "s"), taken \(UTCTime.format(archive.created))"
        )
        if let previous { Swift.print("The folder's previous contents are in \(previous)") }
        warnUnchecked()
    }

    /// Whether `entry` is the API token a restore kept from the folder instead.
    private func kept(_ entry: BackupEntry) -> Bool {
        tokenKept && entry.path == DataDirectory.Names.apiToken
    }

    /// Said on stderr: a copy run beside the original, or one older than the wallet it
    /// replaces, pays with coins already paid (Docs/BACKUP.md).
    private func warnUnchecked() {
        guard let unchecked else { return }
        FileHandle.standardError.write(
            Data(
                """
                tender: warning: not checked against the wallet it copies: \(unchecked). If that wallet paid after \(UTCTime.format(archive.created)), the coins it paid show as spendable here again, and paying with them is a double spend that the payee refuses or loses. Pay from this copy only if the original is gone and paid nothing since the backup; never run both.

                """.utf8))
    }
}
