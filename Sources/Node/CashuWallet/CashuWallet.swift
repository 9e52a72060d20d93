import Cashu
import CashuStore
import Codecs
import Crypto
import NodeKit
import Secp256k1

/// The node's Cashu wallet (Docs/CASHU.md): tokens taken offline and checked as far as the
/// mint's keys allow, swapped at their mint at the next sync, given from the wallet's own
/// proofs. The store holds every state; this type decides, the mint client talks.
public struct CashuWallet: Sendable {
    public let store: CashuDatabase
    /// The key tokens may be locked to (NUT-11), derived from the wallet key (so a backup of the
    /// wallet key is a backup of it).
    public let lockPublicKey: PublicKey
    /// Its private half, when the wallet key was unlocked: needed to swap or give locked proofs,
    /// not to take tokens offline.
    let signingKey: PrivateKey?

    /// With the wallet key unlocked: can sign.
    public init(store: CashuDatabase, lockKey: PrivateKey) {
        self.store = store
        lockPublicKey = lockKey.publicKey
        signingKey = lockKey
    }

    /// Without it: takes tokens and shows what is held.
    public init(store: CashuDatabase, lockPublicKey: PublicKey) {
        self.store = store
        self.lockPublicKey = lockPublicKey
        signingKey = nil
    }

    var lockKey: PrivateKey {
        get throws(NodeError) {
            guard let signingKey else {
                throw NodeError(
                    .key(
                        "a locked token needs the wallet key to be spent: open the wallet with its passphrase"
                    ))
            }
            return signingKey
        }
    }

    /// HMAC-SHA256 of a fixed label under the wallet key: another key, never the wallet's own
    /// (which signs Tender notes), and the same on every device the wallet is restored on.
    public static func lockKey(from walletKey: PrivateKey) -> PrivateKey {
        var label = Array("tender/cashu/p2pk".utf8)
        while true {
            let scalar = walletKey.withUnsafeBytes { secret in
                Array(
                    HMAC<SHA256>.authenticationCode(
                        for: label, using: SymmetricKey(data: Array(secret))))
            }
            if let key = try? PrivateKey(bytes: scalar) { return key }
            label.append(0)  // out of range: about 2^-128, try the next label
        }
    }

    static func refused(_ error: CashuError) -> NodeError {
        NodeError(.refusedEcash(code: error.code, reason: error.ofToken))
    }

    static func failed(_ error: any Error) -> NodeError {
        if let error = error as? NodeError { return error }
        if let error = error as? CashuStoreError {
            switch error.kind {
            case .alreadyHeld: return NodeError(.exists(error.message))
            case .unknownMint: return NodeError(.missing(error.message))
            case .keysetCollision:
                return NodeError(.refusedEcash(code: error.code, reason: error.message))
            case .insufficient:
                return NodeError(.refusedEcash(code: "insufficient-funds", reason: error.message))
            case .notFound: return NodeError(.missing(error.message))
            case .corrupt: return NodeError(.io(error.message))
            }
        }
        if let error = error as? CashuError { return refused(error) }
        return NodeError(.io("the Cashu store failed: \(error)"))
    }
}
