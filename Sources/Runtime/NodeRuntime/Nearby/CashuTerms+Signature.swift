import Codecs
import NodeKit
import PaymentSession
import Secp256k1
import Tender

extension CashuTerms {
    /// Terms signed by the payee's wallet key for sessions under `sessionKey` (its Noise
    /// static key): a payer learns from the signature whose lock key it is.
    static func signed(
        mints: [String], units: [String], lockKey: PublicKey, lockedOnly: Bool,
        sessionKey: [UInt8], by walletKey: PrivateKey
    ) throws -> CashuTerms {
        var terms = CashuTerms(
            mints: mints, units: units, lockKey: lockKey.compressed, lockedOnly: lockedOnly)
        terms.signature = try walletKey.sign(
            digest: Keccak256.hash(terms.signedBytes(sessionKey: sessionKey))
        ).bytes
        return terms
    }

    /// The address of the wallet key that signed the terms for a session with `sessionKey`
    /// (the payee's Noise static key, as the handshake authenticated it), or nil when none
    /// recovers. Terms relayed from another session name another signer.
    public func signer(sessionKey: [UInt8]) -> Address? {
        guard let signature = try? RecoverableSignature(bytes: signature),
            let key = try? signature.recoverPublicKey(
                digest: Keccak256.hash(signedBytes(sessionKey: sessionKey)))
        else { return nil }
        return Address(publicKey: key)
    }
}
