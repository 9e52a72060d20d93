import Codecs
import Crypto
import Secp256k1

/// A proof that the mint signed with the key it publishes for the amount (NUT-12): that the
/// same `a` gives `A = a·G` and `C' = a·B'`. With the wallet's blinding factor `r` attached,
/// anyone holding the mint's public keys can check a proof offline.
public struct DLEQProof: Hashable, Sendable {
    /// The challenge (32 bytes).
    public let e: [UInt8]
    /// The response (32 bytes).
    public let s: [UInt8]
    /// The blinding factor (32 bytes), present when a wallet passes the proof on to a payee.
    public let r: [UInt8]?

    public init(e: [UInt8], s: [UInt8], r: [UInt8]?) throws(CashuError) {
        guard e.count == 32 else {
            throw CashuError(.malformed, field: "dleq.e", "is not 32 bytes")
        }
        guard s.count == 32 else {
            throw CashuError(.malformed, field: "dleq.s", "is not 32 bytes")
        }
        guard r == nil || r?.count == 32 else {
            throw CashuError(.malformed, field: "dleq.r", "is not 32 bytes")
        }
        self.e = e
        self.s = s
        self.r = r
    }

    /// NUT-12's `hash_e`: SHA-256 of the points' uncompressed encodings, as lowercase hex text.
    public static func challenge(_ points: [PublicKey]) -> [UInt8] {
        let text = points.map { Hex.encode($0.uncompressed, prefix: false) }.joined()
        return Array(SHA256.hash(data: Array(text.utf8)))
    }

    /// Whether the mint's key `a` signed `blinded` (B') into `signature` (C'): the check a
    /// wallet makes on a blind signature it receives.
    public func verifies(
        mintKey: PublicKey, blinded: PublicKey, signature: PublicKey
    ) -> Bool {
        // R1 = s·G - e·A, R2 = s·B' - e·C'; any scalar out of range or a point at infinity is
        // a failed proof, not an error to report differently.
        guard let r1 = try? PublicKey.generatorMultiple(s).subtracting(mintKey.multiplied(by: e)),
            let r2 = try? blinded.multiplied(by: s).subtracting(signature.multiplied(by: e))
        else { return false }
        return Self.challenge([r1, r2, mintKey, signature]) == e
    }

    /// Whether a proof `(secret, C)` carries a valid signature by `mintKey`: the payee's
    /// offline check (NUT-12, "Carol verifies"). Needs `r`.
    public func verifies(
        mintKey: PublicKey, secret: some Collection<UInt8>, signature: PublicKey
    ) -> Bool {
        guard let r,
            let y = try? BlindDiffieHellman.hashToCurve(secret),
            let blinded = try? y.adding(PublicKey.generatorMultiple(r)),
            let blindSignature = try? signature.adding(mintKey.multiplied(by: r))
        else { return false }
        return verifies(mintKey: mintKey, blinded: blinded, signature: blindSignature)
    }
}
