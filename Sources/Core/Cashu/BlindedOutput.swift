import Codecs
import Secp256k1

/// What a wallet asks the mint to sign (NUT-00 `BlindedMessage`, an "output").
public struct BlindedMessage: Hashable, Sendable {
    public let amount: UInt64
    /// The full keyset id the mint is to sign with (an active keyset).
    public let keysetID: [UInt8]
    /// `B' = Y + r·G`.
    public let blinded: PublicKey

    public init(amount: UInt64, keysetID: [UInt8], blinded: PublicKey) {
        self.amount = amount
        self.keysetID = keysetID
        self.blinded = blinded
    }
}

/// The mint's answer to one output (NUT-00 `BlindSignature`, a "promise"), with its DLEQ proof
/// (NUT-12) when the mint gives one.
public struct BlindSignature: Hashable, Sendable {
    public let amount: UInt64
    public let keysetID: [UInt8]
    /// `C' = k·B'`.
    public let signature: PublicKey
    public let dleq: DLEQProof?

    public init(amount: UInt64, keysetID: [UInt8], signature: PublicKey, dleq: DLEQProof?) {
        self.amount = amount
        self.keysetID = keysetID
        self.signature = signature
        self.dleq = dleq
    }
}

/// An output before the mint signs it: its secret and blinding factor, kept (in the store,
/// before the request leaves) so the signature can be unblinded whenever it comes back, even
/// after a crash (NUT-09 restore gives it again).
public struct PreparedOutput: Hashable, Sendable {
    public let amount: UInt64
    public let keysetID: [UInt8]
    public let secret: String
    /// The blinding factor `r` (32 bytes, a valid scalar).
    public let r: [UInt8]
    public let message: BlindedMessage

    public init(amount: UInt64, keysetID: [UInt8], secret: String, r: [UInt8]) throws(CashuError) {
        self.amount = amount
        self.keysetID = keysetID
        self.secret = secret
        self.r = r
        message = BlindedMessage(
            amount: amount, keysetID: keysetID,
            blinded: try BlindDiffieHellman.blind(secret: Array(secret.utf8), blindingFactor: r))
    }

    /// A fresh output: a random 32-byte secret as 64 hex characters (NUT-00's advice against
    /// fingerprinting), or `secret` when a condition is wanted; a random `r`.
    public static func random(
        amount: UInt64, keysetID: [UInt8], secret: String? = nil,
        using generator: inout some RandomNumberGenerator
    ) -> PreparedOutput {
        let text =
            secret
            ?? Hex.encode(
                (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }, prefix: false)
        while true {
            let r = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let output = try? PreparedOutput(
                amount: amount, keysetID: keysetID, secret: text, r: r)
            {
                return output
            }
        }
    }

    /// The proof this output becomes once `signature` is unblinded; refused unless the mint
    /// signed with the keyset's key for the amount, as the DLEQ proof must show.
    public func proof(from signature: BlindSignature, keyset: Keyset) throws(CashuError) -> Proof {
        guard signature.amount == amount, signature.keysetID == keysetID, keyset.id == keysetID
        else {
            throw CashuError(
                .malformed, field: "signature",
                "the mint answered for amount \(signature.amount) in keyset \(Hex.encode(signature.keysetID, prefix: false)), not the \(amount) asked"
            )
        }
        guard let mintKey = keyset.keys[amount] else {
            throw CashuError(
                .unknownKeyset, field: "amount", "keyset \(keyset.idHex) has no key for \(amount)")
        }
        guard let dleq = signature.dleq,
            dleq.verifies(
                mintKey: mintKey, blinded: message.blinded, signature: signature.signature)
        else {
            throw CashuError(
                .badSignature, field: "signature.dleq",
                "the mint's signature for \(amount) has no valid DLEQ proof for keyset \(keyset.idHex)"
            )
        }
        let unblinded = try BlindDiffieHellman.unblind(
            signature: signature.signature, blindingFactor: r, mintPublicKey: mintKey)
        return Proof(
            amount: amount, keysetID: keysetID, secret: secret, signature: unblinded,
            dleq: try DLEQProof(e: dleq.e, s: dleq.s, r: r))
    }
}

extension UInt64 {
    /// The powers of two that sum to this amount, smallest first: how a wallet splits an
    /// amount into outputs (one key per power of two, NUT-01).
    public var powersOfTwo: [UInt64] {
        (0..<64).compactMap { bit in self & (1 << bit) != 0 ? 1 << bit : nil }
    }
}
