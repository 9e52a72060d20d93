import Cashu
import CashuTestSupport
import Codecs
import Secp256k1
import Testing

/// NUT-00 and NUT-12 known answers: cashubtc/nuts tests/00-tests.md and tests/12-tests.md
/// (commit 3ddb1ae).
@Suite struct BlindSignatureTests {
    @Test(arguments: [
        (
            "0000000000000000000000000000000000000000000000000000000000000000",
            "024cce997d3b518f739663b757deaec95bcd9473c30a14ac2fd04023a739d1a725"
        ),
        (
            "0000000000000000000000000000000000000000000000000000000000000001",
            "022e7158e11c9506f1aa4248bf531298daa7febd6194f003edcd9b93ade6253acf"
        ),
        (
            "0000000000000000000000000000000000000000000000000000000000000002",
            "026cdbe15362df59cd1dd3c9c11de8aedac2106eca69236ecd9fbe117af897be4f"
        ),
    ])
    func hashToCurve(message: String, expected: String) throws {
        #expect(hex(try BlindDiffieHellman.hashToCurve(bytes(message)).compressed) == expected)
    }

    @Test(arguments: [
        (
            "d341ee4871f1f889041e63cf0d3823c713eea6aff01e80f1719f08f9e5be98f6",
            "99fce58439fc37412ab3468b73db0569322588f62fb3a49182d67e23d877824a",
            "033b1a9737a40cc3fd9b6af4b723632b76a67a36782596304612a6c2bfb5197e6d"
        ),
        (
            "f1aaf16c2239746f369572c0784d9dd3d032d952c2d992175873fb58fae31a60",
            "f78476ea7cc9ade20f9e05e58a804cf19533f03ea805ece5fee88c8e2874ba50",
            "029bdf2d716ee366eddf599ba252786c1033f47e230248a4612a5670ab931f1763"
        ),
    ])
    func blindedMessage(secret: String, r: String, expected: String) throws {
        let blinded = try BlindDiffieHellman.blind(secret: bytes(secret), blindingFactor: bytes(r))
        #expect(hex(blinded.compressed) == expected)
    }

    @Test(arguments: [
        (
            "0000000000000000000000000000000000000000000000000000000000000001",
            "02a9acc1e48c25eeeb9289b5031cc57da9fe72f3fe2861d264bdc074209b107ba2"
        ),
        (
            "7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
            "0398bc70ce8184d27ba89834d19f5199c84443c31131e48d3c1214db24247d005d"
        ),
    ])
    func blindSignature(mintKey: String, expected: String) throws {
        let blinded = point("02a9acc1e48c25eeeb9289b5031cc57da9fe72f3fe2861d264bdc074209b107ba2")
        #expect(
            hex(try BlindDiffieHellman.sign(blinded: blinded, mintKey: bytes(mintKey)).compressed)
                == expected)
    }

    /// Unblinding gives `k·Y`: the signature the mint checks with its key (NUT-00).
    @Test func unblindingGivesTheMintsSignatureOnTheSecret() throws {
        let k = bytes("7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f")
        let r = bytes("99fce58439fc37412ab3468b73db0569322588f62fb3a49182d67e23d877824a")
        let secret = Array("test message".utf8)
        let blinded = try BlindDiffieHellman.blind(secret: secret, blindingFactor: r)
        let blindSignature = try BlindDiffieHellman.sign(blinded: blinded, mintKey: k)
        let unblinded = try BlindDiffieHellman.unblind(
            signature: blindSignature, blindingFactor: r,
            mintPublicKey: PublicKey.generatorMultiple(k))
        #expect(unblinded == (try BlindDiffieHellman.hashToCurve(secret).multiplied(by: k)))
    }

    @Test func dleqOnABlindSignature() throws {
        let proof = try DLEQProof(
            e: bytes("9818e061ee51d5c8edc3342369a554998ff7b4381c8652d724cdf46429be73d9"),
            s: bytes("9818e061ee51d5c8edc3342369a554998ff7b4381c8652d724cdf46429be73da"), r: nil)
        let a = point("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
        let b = point("02a9acc1e48c25eeeb9289b5031cc57da9fe72f3fe2861d264bdc074209b107ba2")
        #expect(proof.verifies(mintKey: a, blinded: b, signature: b))
        #expect(!proof.verifies(mintKey: a.negated, blinded: b, signature: b))
    }

    /// NUT-12's deterministic-nonce vector: a mint with a = 2 proves C' = a·B'.
    @Test func dleqFromTheNonceVector() throws {
        let proof = try DLEQProof(
            e: bytes("2a16ffee280aff3c429045607f9b8e0bf8b35910c44c1b20b9dfaf01b263d7b3"),
            s: bytes("9df27731238334718d120d4f74611a7c668233f988e687ac3fb188f0a34a2dab"), r: nil)
        #expect(
            proof.verifies(
                mintKey: point(
                    "02c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5"),
                blinded: point(
                    "02a9acc1e48c25eeeb9289b5031cc57da9fe72f3fe2861d264bdc074209b107ba2"),
                signature: point(
                    "0244eccfc7a348274458bb38044c7f3c389b3c2086c7ec18b5812d2877ab937787")))
    }

    /// The payee's check (NUT-12, "Carol"), and every single-bit change of e, s, r, C or the
    /// secret makes it fail.
    @Test func dleqOnAProofAndEveryBitFlipOfIt() throws {
        let mintKey = point("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
        let secret = Array("daf4dd00a2b68a0858a80450f52c8a7d2ccf87d375e43e216e0c571f089f63e9".utf8)
        let c = bytes("024369d2d22a80ecf78f3937da9d5f30c1b9f74f0c32684d583cca0fa6a61cdcfc")
        let e = bytes("b31e58ac6527f34975ffab13e70a48b6d2b0d35abc4b03f0151f09ee1a9763d4")
        let s = bytes("8fbae004c59e754d71df67e392b6ae4e29293113ddc2ec86592a0431d16306d8")
        let r = bytes("a6d13fcd7a18442e6076f5e1e7c887ad5de40a019824bdfa9fe740d302e8d861")
        func holds(
            _ e: [UInt8], _ s: [UInt8], _ r: [UInt8], _ c: [UInt8], _ secret: [UInt8]
        ) -> Bool {
            guard let proof = try? DLEQProof(e: e, s: s, r: r),
                let signature = try? PublicKey(serialized: c)
            else { return false }
            return proof.verifies(mintKey: mintKey, secret: secret, signature: signature)
        }
        #expect(holds(e, s, r, c, secret))
        func flips(_ bytes: [UInt8]) -> [[UInt8]] {
            (0..<bytes.count * 8).map { bit in
                var copy = bytes
                copy[bit / 8] ^= 1 << (bit % 8)
                return copy
            }
        }
        var held = 0
        for flipped in flips(e) where holds(flipped, s, r, c, secret) { held += 1 }
        for flipped in flips(s) where holds(e, flipped, r, c, secret) { held += 1 }
        for flipped in flips(r) where holds(e, s, flipped, c, secret) { held += 1 }
        for flipped in flips(c) where holds(e, s, r, flipped, secret) { held += 1 }
        for flipped in flips(secret) where holds(e, s, r, c, flipped) { held += 1 }
        #expect(held == 0)
        #expect(!holds(e, s, r, c, secret.dropLast() + []))
    }

    @Test func hashEKnownAnswer() throws {
        let one = point("020000000000000000000000000000000000000000000000000000000000000001")
        let c = point("02a9acc1e48c25eeeb9289b5031cc57da9fe72f3fe2861d264bdc074209b107ba2")
        #expect(
            hex(DLEQProof.challenge([one, one, one, c]))
                == "a4dc034b74338c28c6bc3ea49731f2a24440fc7c4affc08b31a93fc9fbe6401e")
    }
}
