import Foundation
import Keystore
import NodeKit
import Secp256k1
import Tender

/// The node's keys on disk: the wallet key (BIP39-backed) and an optional development issuer
/// key, each a passphrase-encrypted key file with mode 0600.
public struct KeyVault: Sendable {
    public let directory: DataDirectory
    public let passphrases: PassphraseSource

    public init(directory: DataDirectory, passphrases: PassphraseSource = PassphraseSource()) {
        self.directory = directory
        self.passphrases = passphrases
    }

    /// Derives the wallet key from `mnemonic` (BIP44 m/44'/60'/0'/0/0, as Ethereum wallets do,
    /// so the same words restore the same address elsewhere) and writes it encrypted.
    public func createWalletKey(
        mnemonic: Mnemonic, cost: ScryptCost
    ) throws(NodeError) -> PrivateKey {
        let key = try keystore { () throws(KeystoreError) in try mnemonic.privateKey() }
        try write(key, to: directory.walletKey, purpose: "the new wallet key", cost: cost)
        return key
    }

    public func createIssuerKey(cost: ScryptCost) throws(NodeError) -> PrivateKey {
        let key = PrivateKey.generate()
        try write(key, to: directory.issuerKey, purpose: "the new issuer key", cost: cost)
        return key
    }

    public func walletKey() throws(NodeError) -> PrivateKey {
        guard let key = try walletKeyIfPresent() else { throw directory.noWallet }
        return key
    }

    /// The wallet key, or nil when the folder has none (asks nothing then).
    public func walletKeyIfPresent() throws(NodeError) -> PrivateKey? {
        guard FileManager.default.fileExists(atPath: directory.walletKey) else { return nil }
        return try unlock(directory.walletKey, purpose: "the wallet key")
    }

    public func issuerKey() throws(NodeError) -> PrivateKey {
        guard FileManager.default.fileExists(atPath: directory.issuerKey) else {
            throw NodeError(
                .missing("no issuer key in \(directory.path)"), resolvedBy: .initialiseIssuer)
        }
        return try unlock(directory.issuerKey, purpose: "the issuer key")
    }

    /// The address a key file is for, without the passphrase.
    public func address(ofKeyAt path: String) throws(NodeError) -> Address {
        let file = try keystore { () throws(KeystoreError) in try KeyFile.load(from: path) }
        do { return try Address(file.address) } catch {
            throw NodeError(.key("key file \(path) holds a malformed address"))
        }
    }

    private func write(
        _ key: PrivateKey, to path: String, purpose: String, cost: ScryptCost
    ) throws(NodeError) {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw NodeError(.exists("a key already exists at \(path)"))
        }
        let passphrase = try passphrases.read(purpose: purpose, confirm: true)
        var generator = SystemRandomNumberGenerator()
        let file = try keystore { () throws(KeystoreError) in
            try KeyFile(encrypting: key, passphrase: passphrase, cost: cost, using: &generator)
        }
        try keystore { () throws(KeystoreError) in try file.write(to: path) }
    }

    private func unlock(_ path: String, purpose: String) throws(NodeError) -> PrivateKey {
        let file = try keystore { () throws(KeystoreError) in try KeyFile.load(from: path) }
        let passphrase = try passphrases.read(purpose: purpose)
        return try keystore { () throws(KeystoreError) in try file.decrypt(passphrase: passphrase) }
    }

    private func keystore<T>(_ body: () throws(KeystoreError) -> T) throws(NodeError) -> T {
        do { return try body() } catch {
            switch error.kind {
            case .wrongPassphrase: throw NodeError(.passphrase(error.message))
            case .fileMissing: throw NodeError(.missing(error.message))
            case .fileExists: throw NodeError(.exists(error.message))
            case .writeFailed: throw NodeError(.io(error.message))
            default: throw NodeError(.key(error.message))
            }
        }
    }
}
