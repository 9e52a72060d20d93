import Crypto
import Secp256k1

/// Cashu's blind signature scheme (NUT-00, "BDHKE"): the wallet blinds a secret, the mint signs
/// it without seeing it, the wallet unblinds the signature. Only the mint can check a signature
/// with its private key; anyone can check a DLEQ proof (`DLEQProof`) with its public key.
public enum BlindDiffieHellman {
    /// NUT-00's domain separator for `hashToCurve`.
    static let domainSeparator = Array("Secp256k1_HashToCurve_Cashu_".utf8)

    /// `Y = hash_to_curve(x)`: the point a secret stands for. Try-and-increment over a little-
    /// endian 32-bit counter; a point is found within a few tries for every input, so running
    /// out of counters is an internal impossibility, reported rather than trapped.
    public static func hashToCurve(
        _ message: some Collection<UInt8>
    ) throws(CashuError) -> PublicKey {
        let messageHash = Array(SHA256.hash(data: domainSeparator + Array(message)))
        for counter in UInt32(0)..<UInt32(1 << 16) {
            let counterBytes = withUnsafeBytes(of: counter.littleEndian, Array.init)
            let candidate = [0x02] + Array(SHA256.hash(data: messageHash + counterBytes))
            if let point = try? PublicKey(serialized: candidate) { return point }
        }
        throw CashuError(.malformed, field: "secret", "no curve point found for this secret")
    }

    /// `B' = Y + r·G`: what the wallet sends the mint for `secret`, blinded by `r`.
    public static func blind(
        secret: some Collection<UInt8>, blindingFactor r: [UInt8]
    ) throws(CashuError) -> PublicKey {
        let y = try hashToCurve(secret)
        do { return try y.adding(PublicKey.generatorMultiple(r)) } catch {
            throw CashuError(.malformed, field: "r", "blinding factor: \(error)")
        }
    }

    /// `C' = k·B'`: the mint's blind signature (here for tests and for checking the scheme).
    public static func sign(blinded: PublicKey, mintKey k: [UInt8]) throws(CashuError) -> PublicKey
    {
        do { return try blinded.multiplied(by: k) } catch {
            throw CashuError(.malformed, field: "k", "mint key: \(error)")
        }
    }

    /// `C = C' - r·K`: the signature on the secret itself.
    public static func unblind(
        signature: PublicKey, blindingFactor r: [UInt8], mintPublicKey: PublicKey
    ) throws(CashuError) -> PublicKey {
        do { return try signature.subtracting(mintPublicKey.multiplied(by: r)) } catch {
            throw CashuError(.malformed, field: "r", "unblinding: \(error)")
        }
    }
}
