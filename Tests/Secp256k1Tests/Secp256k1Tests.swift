import Secp256k1
import Testing

@Suite struct Secp256k1Tests {
    /// Private key 1: its public key is the generator G (SEC 2, §2.4.1).
    @Test func keyOneIsTheGenerator() throws {
        let one = try PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [1])
        #expect(
            hex(one.publicKey.compressed)
                == "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
    }

    @Test func rejectsZeroAndOrderAndWrongLengths() {
        #expect(throws: Secp256k1Error.invalidPrivateKey) {
            try PrivateKey(bytes: [UInt8](repeating: 0, count: 32))
        }
        let order = bytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
        #expect(throws: Secp256k1Error.invalidPrivateKey) { try PrivateKey(bytes: order) }
        #expect(throws: Secp256k1Error.invalidPrivateKey) {
            try PrivateKey(bytes: [UInt8](repeating: 1, count: 31))
        }
    }

    /// RFC 6979 makes signatures deterministic; recovery returns the signer.
    @Test func signsDeterministicallyAndRecovers() throws {
        let key = try PrivateKey(bytes: [UInt8](repeating: 0x11, count: 32))
        let digest = [UInt8](repeating: 0xAB, count: 32)
        let first = try key.sign(digest: digest)
        let second = try key.sign(digest: digest)
        #expect(first == second)
        #expect(try first.recoverPublicKey(digest: digest) == key.publicKey)
        #expect(first.isValid(digest: digest, publicKey: key.publicKey))
        var other = digest
        other[0] ^= 1
        #expect(try first.recoverPublicKey(digest: other) != key.publicKey)
        #expect(!first.isValid(digest: other, publicKey: key.publicKey))
        let parsed = try RecoverableSignature(bytes: first.bytes)
        #expect(parsed == first)
    }

    /// The high-s twin (n - s) of a valid signature is refused.
    @Test func refusesHighS() throws {
        let key = try PrivateKey(bytes: [UInt8](repeating: 0x22, count: 32))
        let signature = try key.sign(digest: [UInt8](repeating: 7, count: 32))
        let order = bytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
        var twin = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            let difference = Int(order[index]) - Int(signature.s[index]) - borrow
            twin[index] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        let flipped = signature.r + twin + [27 + (1 - signature.recoveryID)]
        #expect(throws: Secp256k1Error.nonCanonicalSignature) {
            try RecoverableSignature(bytes: flipped)
        }
        #expect(throws: Secp256k1Error.malformedSignature) {
            try RecoverableSignature(bytes: signature.r + signature.s + [29])
        }
    }

    @Test func parsesCompressedAndUncompressedForms() throws {
        let key = PrivateKey.generate().publicKey
        #expect(try PublicKey(serialized: key.compressed) == key)
        #expect(try PublicKey(serialized: key.uncompressed) == key)
        #expect(throws: Secp256k1Error.invalidPublicKey) {
            try PublicKey(serialized: [0x02] + [UInt8](repeating: 0xFF, count: 32))
        }
    }

    @Test func tweakAddsModuloTheOrder() throws {
        let one = try PrivateKey(bytes: [UInt8](repeating: 0, count: 31) + [1])
        let two = try one.adding(tweak: [UInt8](repeating: 0, count: 31) + [1])
        #expect(
            hex(two.publicKey.compressed)
                == "02c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5")
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
}

func bytes(_ hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        result.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return result
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
