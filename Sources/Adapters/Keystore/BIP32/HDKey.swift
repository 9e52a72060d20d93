import Secp256k1

/// A BIP32 extended private key: a secp256k1 key and the chain code that lets it derive children.
///
/// Only private derivation is offered (every child is computed from the parent's private key);
/// base58 `xprv` serialisation is left out because its parent fingerprint needs RIPEMD-160,
/// which swift-crypto does not provide, and nothing in Tender exchanges extended keys.
public struct HDKey: Sendable {
    public let privateKey: PrivateKey
    /// 32 bytes. Secret too: with the public key it derives every non-hardened child.
    public let chainCode: [UInt8]
    /// 0 for the master key.
    public let depth: UInt8
    /// The child number this key was derived with, hardened bit included; 0 for the master key.
    public let childNumber: UInt32

    public var publicKey: PublicKey { privateKey.publicKey }

    /// The master key of `seed` (16 to 64 bytes; BIP39 seeds are 64): HMAC-SHA512 keyed with
    /// "Bitcoin seed".
    public init(seed: [UInt8]) throws(KeystoreError) {
        guard (16...64).contains(seed.count) else {
            throw KeystoreError(
                .invalidSeed, "a BIP32 seed is 16 to 64 bytes, got \(seed.count)")
        }
        var digest = hmacSHA512(key: Array("Bitcoin seed".utf8), message: seed)
        defer { wipe(&digest) }
        guard let key = try? PrivateKey(bytes: digest[0..<32]) else {
            // BIP32: "In case parse256(IL) is 0 or parse256(IL) ≥ n, the master key is invalid."
            throw KeystoreError(.derivationFailed, "this seed gives an invalid BIP32 master key")
        }
        self.init(
            privateKey: key, chainCode: Array(digest[32..<64]), depth: 0, childNumber: 0)
    }

    private init(privateKey: PrivateKey, chainCode: [UInt8], depth: UInt8, childNumber: UInt32) {
        self.privateKey = privateKey
        self.chainCode = chainCode
        self.depth = depth
        self.childNumber = childNumber
    }

    /// CKDpriv: the child at `component`.
    ///
    /// Hardened children hash `0x00 ‖ ser256(k) ‖ ser32(i)`, normal ones `serP(K) ‖ ser32(i)`
    /// with the 33-byte compressed public key; the child key is `IL + k mod n`.
    public func child(_ component: DerivationPath.Component) throws(KeystoreError) -> HDKey {
        guard depth < UInt8.max else {
            throw KeystoreError(.derivationFailed, "a BIP32 key cannot be deeper than 255")
        }
        let number = component.childNumber
        var data: [UInt8] = []
        data.reserveCapacity(37)  // so appending never reallocates and strands a copy
        if component.isHardened {
            data.append(0x00)
            privateKey.withUnsafeBytes { data.append(contentsOf: $0) }
        } else {
            data.append(contentsOf: publicKey.compressed)
        }
        data += [
            UInt8(number >> 24), UInt8(number >> 16 & 0xff), UInt8(number >> 8 & 0xff),
            UInt8(number & 0xff),
        ]
        var digest = hmacSHA512(key: chainCode, message: data)
        defer {
            wipe(&data)
            wipe(&digest)
        }
        // Fails when IL ≥ n or the sum is zero; BIP32 says to move to the next index, which a
        // caller holding a fixed path cannot do, so it is reported (odds below 2^-127).
        guard let key = try? privateKey.adding(tweak: digest[0..<32]) else {
            throw KeystoreError(
                .derivationFailed, "BIP32 child \(component) gives an invalid key")
        }
        return HDKey(
            privateKey: key, chainCode: Array(digest[32..<64]), depth: depth + 1,
            childNumber: number)
    }

    /// Follows every component of `path` from this key (from the master key, that is the
    /// absolute path the text spells).
    public func derive(_ path: DerivationPath) throws(KeystoreError) -> HDKey {
        var key = self
        for component in path.components {
            key = try key.child(component)
        }
        return key
    }
}

extension HDKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "HDKey(depth \(depth), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
