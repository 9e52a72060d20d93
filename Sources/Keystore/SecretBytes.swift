import Crypto

// Small primitives shared by the BIP39, BIP32 and key-file code. Secrets pass through plain
// `[UInt8]` here because `PrivateKey(bytes:)` and the KDFs take collections; each buffer is
// wiped as soon as it has been consumed.

/// Overwrites a buffer in place so the secret it held does not linger in freed memory.
///
/// Swift arrays are copy-on-write: this clears this array's storage, which is the only copy as
/// long as the caller never shared it.
func wipe(_ bytes: inout [UInt8]) {
    bytes.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        // Best effort, like the Secp256k1 wrapper's `wipe`: Swift has no `memset_s`, and the
        // stores go through a raw pointer the optimiser treats as escaping.
        for offset in 0..<buffer.count {
            base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
        }
    }
}

/// SHA-256 of `bytes`.
func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    Array(SHA256.hash(data: Array(bytes)))
}

/// HMAC-SHA512 of `message` under `key`, as BIP32 uses it.
func hmacSHA512(key: [UInt8], message: [UInt8]) -> [UInt8] {
    Array(HMAC<SHA512>.authenticationCode(for: message, using: SymmetricKey(data: key)))
}

extension SymmetricKey {
    /// Copies the key out; the caller owns (and wipes) the copy.
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
