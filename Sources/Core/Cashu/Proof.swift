import Codecs
import Secp256k1

/// One piece of ecash (NUT-00): an amount, the keyset that signed it, the secret and the
/// mint's unblinded signature `C` on it, and optionally the DLEQ proof (NUT-12) and the witness
/// that unlocks a spending condition (NUT-10/11). Whoever knows the secret and `C` can spend it.
public struct Proof: Hashable, Sendable {
    public let amount: UInt64
    /// The keyset id as written in the token: full, or the 8-byte short form (NUT-00).
    public let keysetID: [UInt8]
    /// The secret, as the exact text the mint saw (signed as text, so never re-encoded).
    public let secret: String
    /// `C`, the mint's signature on the secret.
    public let signature: PublicKey
    public let dleq: DLEQProof?
    /// The witness JSON text, as given.
    public let witness: String?

    public init(
        amount: UInt64, keysetID: [UInt8], secret: String, signature: PublicKey,
        dleq: DLEQProof? = nil, witness: String? = nil
    ) {
        self.amount = amount
        self.keysetID = keysetID
        self.secret = secret
        self.signature = signature
        self.dleq = dleq
        self.witness = witness
    }

    /// `Y = hash_to_curve(secret)`, compressed: how a mint names a proof in its spent set and
    /// state checks (NUT-07).
    public func y() throws(CashuError) -> [UInt8] {
        try BlindDiffieHellman.hashToCurve(Array(secret.utf8)).compressed
    }

    /// The spending condition the secret states (NUT-10), nil for a plain random secret.
    public func condition() throws(CashuError) -> SpendingCondition? {
        try SpendingCondition.parse(secret)
    }

    /// The same proof with another witness (a payee signing to unlock it).
    public func with(witness: String?) -> Proof {
        Proof(
            amount: amount, keysetID: keysetID, secret: secret, signature: signature, dleq: dleq,
            witness: witness)
    }
}
