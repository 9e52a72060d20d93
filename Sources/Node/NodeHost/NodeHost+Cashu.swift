import CashuStore
import CashuWallet
import Codecs
import NodeKit
import Secp256k1

extension NodeHost {
    /// The Cashu wallet beside the node's wallet (Docs/CASHU.md). `signing` unlocks the wallet
    /// key (its passphrase) for what needs the lock key's signature: swapping or giving locked
    /// proofs. Taking tokens offline does not, once the lock key's public half is recorded
    /// (the first opening unlocks the wallet key to record it).
    public func openCashu(signing: Bool) throws(NodeError) -> CashuWallet {
        let store = try openCashuStore()
        if !signing, let wallet = try Self.takingOnly(store) { return wallet }
        return try Self.signing(store, walletKey: try keys.walletKey())
    }

    /// The same for a process that holds the wallet key unlocked already, or never asks for it
    /// (the node): signing with `walletKey`; without it, taking tokens only, once the lock
    /// key's public half was recorded; nil when it never was (the wallet key is needed once).
    public func openCashu(walletKey: PrivateKey?) throws(NodeError) -> CashuWallet? {
        let store = try openCashuStore()
        guard let walletKey else { return try Self.takingOnly(store) }
        return try Self.signing(store, walletKey: walletKey)
    }

    private func openCashuStore() throws(NodeError) -> CashuDatabase {
        guard directory.exists else { throw directory.noWallet }
        do { return try CashuDatabase(path: directory.cashu) } catch {
            throw NodeError(.io("cannot open \(directory.cashu): \(error)"))
        }
    }

    private static func takingOnly(_ store: CashuDatabase) throws(NodeError) -> CashuWallet? {
        do {
            guard let hex = try store.lockPublicKey(),
                let key = try? PublicKey(serialized: Hex.decode(hex))
            else { return nil }
            return CashuWallet(store: store, lockPublicKey: key)
        } catch {
            throw NodeError(.io("the Cashu store at \(store.path): \(error)"))
        }
    }

    private static func signing(
        _ store: CashuDatabase, walletKey: PrivateKey
    ) throws(NodeError) -> CashuWallet {
        let lockKey = CashuWallet.lockKey(from: walletKey)
        do {
            try store.setLockPublicKey(Hex.encode(lockKey.publicKey.compressed, prefix: false))
        } catch {
            throw NodeError(.io("the Cashu store at \(store.path): \(error)"))
        }
        return CashuWallet(store: store, lockKey: lockKey)
    }
}
