import Crypto
import Posix

// Small primitives shared by the BIP39, BIP32 and key-file code. Secrets pass through plain
// `[UInt8]` here because `PrivateKey(bytes:)` and the KDFs take collections; each buffer is
// wiped as soon as it has been consumed.

/// Overwrites a buffer in place so the secret it held does not linger in freed memory.
func wipe(_ bytes: inout [UInt8]) { secureWipe(&bytes) }

/// `count` bytes from `generator`, one `next()` each: salts and nonces, from the system's
/// CSPRNG or, in tests, a seeded generator.
public func randomBytes(
    _ count: Int, using generator: inout some RandomNumberGenerator
) -> [UInt8] {
    (0..<count).map { _ in generator.next() }
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
