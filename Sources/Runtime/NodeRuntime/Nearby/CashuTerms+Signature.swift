import Codecs
import NodeKit
import PaymentSession
import Secp256k1
import Tender

extension CashuTerms {
    /// Terms signed by the payee's wallet key: a payer learns from the signature whose lock
    /// key it is.
    static func signed(
        mints: [String], lockKey: PublicKey, lockedOnly: Bool, by walletKey: PrivateKey
    ) throws -> CashuTerms {
        var terms = CashuTerms(
            mints: mints, lockKey: lockKey.compressed, lockedOnly: lockedOnly)
        terms.signature = try walletKey.sign(digest: Keccak256.hash(terms.signedBytes)).bytes
        return terms
    }

    /// The address of the wallet key that signed the terms, or nil when none recovers.
    public var signer: Address? {
        guard let signature = try? RecoverableSignature(bytes: signature),
            let key = try? signature.recoverPublicKey(digest: Keccak256.hash(signedBytes))
        else { return nil }
        return Address(publicKey: key)
    }
}
