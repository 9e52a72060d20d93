import Cashu
import Codecs
import Crypto
import Secp256k1

/// A mint in miniature for unit tests: deterministic keys per amount, blind signatures with
/// DLEQ proofs made as NUT-12 describes. The end-to-end labs use a real mint (nutshell).
public struct TestMint {
    public let privateKeys: [UInt64: PrivateKey]
    public let keyset: Keyset
    public let url = "http://mint.test:3338"

    public init(
        seed: UInt8 = 1, unit: String = "sat", amounts: [UInt64] = [1, 2, 4, 8, 16, 32, 64]
    ) throws {
        var keys: [UInt64: PrivateKey] = [:]
        for (index, amount) in amounts.enumerated() {
            keys[amount] = try PrivateKey(
                bytes: [UInt8](repeating: seed, count: 31) + [UInt8(index + 1)])
        }
        privateKeys = keys
        let publicKeys = keys.mapValues(\.publicKey)
        keyset = try Keyset(
            id: Keyset.versionTwoID(publicKeys, unit: unit, inputFeePPK: 0, finalExpiry: nil),
            unit: unit, keys: publicKeys)
    }

    /// A proof of `amount` for `secret`, as a wallet holds it after unblinding, with the DLEQ
    /// proof and blinding factor a payer passes on.
    public func proof(amount: UInt64, secret: String, blindingSeed: UInt8 = 9) throws -> Proof {
        let a = privateKeys[amount]!
        let r = [UInt8](repeating: blindingSeed, count: 31) + [UInt8(truncatingIfNeeded: amount)]
        let blinded = try BlindDiffieHellman.blind(secret: Array(secret.utf8), blindingFactor: r)
        let blindSignature = try a.withUnsafeBytes {
            try BlindDiffieHellman.sign(blinded: blinded, mintKey: Array($0))
        }
        let (e, s) = try dleq(a: a, blinded: blinded, blindSignature: blindSignature, nonce: 3)
        let signature = try BlindDiffieHellman.unblind(
            signature: blindSignature, blindingFactor: r, mintPublicKey: a.publicKey)
        return Proof(
            amount: amount, keysetID: keyset.id, secret: secret, signature: signature,
            dleq: try DLEQProof(e: e, s: s, r: r))
    }

    /// NUT-12: R1 = p·G, R2 = p·B', e = hash(R1, R2, A, C'), s = p + e·a.
    public func dleq(
        a: PrivateKey, blinded: PublicKey, blindSignature: PublicKey, nonce: UInt8
    ) throws
        -> ([UInt8], [UInt8])
    {
        let p = [UInt8](repeating: nonce, count: 32)
        let r1 = try PublicKey.generatorMultiple(p)
        let r2 = try blinded.multiplied(by: p)
        let e = DLEQProof.challenge([r1, r2, a.publicKey, blindSignature])
        let s = try a.multiplied(by: e).adding(tweak: p).withUnsafeBytes { Array($0) }
        return (e, s)
    }

    public func token(
        _ amounts: [UInt64], memo: String? = nil, secretPrefix: String = "s"
    ) throws -> Token {
        Token(
            mint: url, unit: keyset.unit, memo: memo,
            proofs: try amounts.enumerated().map { index, amount in
                try proof(amount: amount, secret: "\(secretPrefix)\(index)-\(amount)")
            })
    }
}

public func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

public func bytes(_ hex: String) -> [UInt8] { try! Hex.decode(hex) }

public func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes, prefix: false) }

public func point(_ hex: String) -> PublicKey { try! PublicKey(serialized: bytes(hex)) }
