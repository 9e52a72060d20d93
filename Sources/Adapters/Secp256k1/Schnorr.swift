import CSecp256k1
import Posix

/// BIP340 Schnorr signatures over x-only keys: what Cashu's P2PK locks (NUT-11) are signed with.
public enum Schnorr {
    /// Whether `signature` (64 bytes) signs `message` (any length, BIP340 allows it; Cashu signs
    /// a 32-byte SHA-256) for the x-only key `publicKey` (32 bytes). Any malformed input is
    /// simply not a valid signature.
    public static func isValid(
        signature: some Collection<UInt8>, message: some Collection<UInt8>,
        publicKey: some Collection<UInt8>
    ) -> Bool {
        let signature = Array(signature)
        let message = Array(message)
        let keyBytes = Array(publicKey)
        guard signature.count == 64, keyBytes.count == 32 else { return false }
        var key = secp256k1_xonly_pubkey()
        guard secp256k1_xonly_pubkey_parse(verifyingContext, &key, keyBytes) == 1 else {
            return false
        }
        return secp256k1_schnorrsig_verify(
            verifyingContext, signature, message, message.count, &key) == 1
    }
}

extension PublicKey {
    /// The 32-byte x coordinate: the BIP340 key of the same point (whatever the parity of y).
    public var xOnly: [UInt8] { Array(coordinates[0..<32]) }
}

extension PrivateKey {
    /// A BIP340 signature of `message`. `auxiliaryRandom` (32 bytes) is mixed into the nonce as
    /// BIP340 recommends; nil gives fresh random bytes.
    public func schnorrSign(
        message: some Collection<UInt8>, auxiliaryRandom: [UInt8]? = nil
    ) throws(Secp256k1Error) -> [UInt8] {
        let message = Array(message)
        var auxiliary =
            auxiliaryRandom
            ?? {
                var generator = SystemRandomNumberGenerator()
                return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }()
        guard auxiliary.count == 32 else { throw .invalidDigestLength(auxiliary.count) }
        var keypair = secp256k1_keypair()
        defer { withUnsafeMutableBytes(of: &keypair) { secureWipe($0) } }
        let created = withUnsafeBytes { secret in
            secp256k1_keypair_create(
                signingContext.pointer, &keypair, secret.bindMemory(to: UInt8.self).baseAddress!)
        }
        guard created == 1 else { throw .invalidPrivateKey }
        var signature = [UInt8](repeating: 0, count: 64)
        var parameters = secp256k1_schnorrsig_extraparams()
        parameters.magic = (0xDA, 0x6F, 0xB3, 0x8C)  // SECP256K1_SCHNORRSIG_EXTRAPARAMS_MAGIC
        let signed = auxiliary.withUnsafeMutableBytes { auxiliaryBytes in
            parameters.ndata = auxiliaryBytes.baseAddress
            return secp256k1_schnorrsig_sign_custom(
                signingContext.pointer, &signature, message, message.count, &keypair, &parameters)
        }
        secureWipe(&auxiliary)
        guard signed == 1 else { throw .invalidPrivateKey }
        return signature
    }
}
