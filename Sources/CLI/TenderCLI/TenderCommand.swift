import ArgumentParser

@main
struct TenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tender",
        abstract: "Offline peer-to-peer payments with signed notes.",
        discussion: """
            Exit status: 0 success, 64 usage, 65 rejected input (bad signature, double spend, \
            wrong chain, expired, ...), 66 missing file, wallet, key or payment, 73 already \
            exists, 69 unavailable: Bluetooth (no bluetoothd, no adapter, adapter off or \
            blocked) or no gas for a transaction, 74 I/O or database error, 75 busy (try again), 77 key, passphrase or \
            permission error.
            Environment: TENDER_HOME (data directory), TENDER_PASSPHRASE_FILE (passphrase, \
            first line), TENDER_MNEMONIC_FILE (words for `init --restore`).
            """,
        version: TenderVersion.description,
        subcommands: [
            InitCommand.self, AddressCommand.self, BalanceCommand.self, IssuerCommand.self,
            TrustCommand.self, PayCommand.self, ReceiveCommand.self, ReceiptCommand.self,
            PaymentsCommand.self, HistoryCommand.self, EvidenceCommand.self, InspectCommand.self,
            RequestCommand.self, PrintCommand.self, ScanCommand.self, ShowCommand.self,
            PeersCommand.self, SyncCommand.self, ChainCommand.self, VaultCommand.self,
            NodeCommand.self, BackupCommand.self, RestoreCommand.self, CashuCommand.self,
        ])
}
