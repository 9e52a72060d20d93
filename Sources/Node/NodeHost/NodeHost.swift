import Foundation
import Keystore
import NodeKit
import Secp256k1
import Tender

/// What a node runs on: its data folder, its keys, its passphrase source and its clock.
/// Front ends (the CLI, later the daemon) open wallets through it.
public struct NodeHost: Sendable {
    public let directory: DataDirectory
    public let keys: KeyVault
    public let clock: any WallClock
    /// `chainRegistry()` as last read, shared by every copy of this host.
    let registryCache = ChainRegistryCache()

    /// `clock`: the process's (`TENDER_NOW` pins it) unless given.
    public init(
        dataDir: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: (any WallClock)? = nil
    ) {
        directory = DataDirectory(explicit: dataDir, environment: environment)
        keys = KeyVault(
            directory: directory, passphrases: PassphraseSource(environment: environment))
        self.clock = clock ?? ProcessInfo.processInfo.tenderClock
    }

    /// The wallet of an initialised data folder.
    public func openWallet() throws(NodeError) -> Wallet {
        guard directory.exists else {
            throw directory.noWallet
        }
        return try Wallet.open(at: directory.database)
    }

    /// A new wallet: the folder (0700), the key derived from `mnemonic` (encrypted, 0600),
    /// and the database bound to its address and `domain`.
    public func createWallet(
        mnemonic: Mnemonic, domain: Domain, cost: ScryptCost
    ) throws(NodeError) -> Address {
        guard !directory.exists else {
            throw NodeError(.exists("a wallet already exists at \(directory.path)"))
        }
        try directory.create()
        let key = try keys.createWalletKey(mnemonic: mnemonic, cost: cost)
        let address = Address(publicKey: key.publicKey)
        try Wallet.create(at: directory.database, address: address, domain: domain).close()
        return address
    }
}
