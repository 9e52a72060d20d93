import ArgumentParser
import Foundation
import NodeHost
import NodeKit

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup's keys, wallets and settings back into a data directory.",
        discussion: """
            Opens FILE with the wallet's passphrase (a wrong one, or a file altered or cut \
            short, is refused with nothing written), checks every path, writes the files \
            into a new folder beside the data directory, checks each wallet there (SQLite \
            integrity check, the key's address), then renames it into place. A data \
            directory with anything in it is refused unless --force, which moves its \
            contents aside (the path is printed); a directory whose wallets are open \
            (`tender node` running) is always refused. Docs/BACKUP.md.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The backup file (from `tender backup`).")
    var file: String

    @Flag(help: "Replace a data directory that is not empty (its contents are moved aside).")
    var force = false

    func run() throws {
        try guarded {
            let restorer = BackupRestore(directory: global.directory)
            try restorer.checkTarget(force: force)
            let passphrase = try global.keys.passphrases.read(purpose: "the backup")
            let archive = try BackupRestore.open(file: file, passphrase: passphrase)
            let outcome = try restorer.restore(archive, force: force, now: global.clock.now())
            BackupReport(
                archive: outcome.archive, address: outcome.address, file: file, size: nil,
                dataDir: global.directory.path, previous: outcome.previous,
                unchecked: outcome.unchecked, tokenKept: outcome.tokenKept
            ).print(json: output.json)
        }
    }
}
