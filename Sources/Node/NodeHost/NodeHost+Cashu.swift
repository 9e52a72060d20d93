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
        guard directory.exists else { throw directory.noWallet }
        let store: CashuDatabase
        do { store = try CashuDatabase(path: directory.cashu) } catch {
            throw NodeError(.io("cannot open \(directory.cashu): \(error)"))
        }
        do {
            if !signing, let hex = try store.lockPublicKey(),
                let key = try? PublicKey(serialized: Hex.decode(hex))
            {
                return CashuWallet(store: store, lockPublicKey: key)
            }
            let lockKey = CashuWallet.lockKey(from: try keys.walletKey())
            try store.setLockPublicKey(Hex.encode(lockKey.publicKey.compressed, prefix: false))
            return CashuWallet(store: store, lockKey: lockKey)
        } catch let error as NodeError {
            throw error
        } catch {
            throw NodeError(.io("the Cashu store at \(directory.cashu): \(error)"))
        }
    }
}
