import Crypto
import Foundation

/// ChaCha20-Poly1305 (RFC 8439), the cipher key files use, for callers that seal their own
/// formats (backups) with a key from `ScryptCost.deriveKey(passphrase:salt:byteCount:)`:
/// they need no crypto library of their own.
public enum ChaCha20Poly1305 {
    public static let keyByteCount = 32
    public static let nonceByteCount = 12
    /// Poly1305's tag, after the ciphertext.
    public static let tagByteCount = 16

    /// Appends `plaintext` sealed under `key` and `nonce` to `output`: the ciphertext (as long
    /// as the plaintext), then the tag. `associatedData` is authenticated, not encrypted.
    /// Reserve `output`'s capacity first to copy the ciphertext only once. Throws only for a
    /// key or a nonce of the wrong size.
    public static func seal(
        _ plaintext: [UInt8], key: ArraySlice<UInt8>, nonce: [UInt8],
        authenticating associatedData: [UInt8], appendingTo output: inout [UInt8]
    ) throws(KeystoreError) {
        do {
            let box = try ChaChaPoly.seal(
                plaintext, using: SymmetricKey(data: key), nonce: ChaChaPoly.Nonce(data: nonce),
                authenticating: associatedData)
            output.append(contentsOf: box.ciphertext)
            output.append(contentsOf: box.tag)
        } catch {
            throw KeystoreError(.unsupportedCipher, "\(error)")
        }
    }

    /// The plaintext of `sealed` (ciphertext, then tag), or nil unless the tag matches: a wrong
    /// key, or any byte of `sealed`, `nonce` or `associatedData` changed, added or cut.
    public static func open(
        _ sealed: ArraySlice<UInt8>, key: ArraySlice<UInt8>, nonce: ArraySlice<UInt8>,
        authenticating associatedData: [UInt8]
    ) -> [UInt8]? {
        guard sealed.count >= tagByteCount else { return nil }
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: sealed.dropLast(tagByteCount),
                tag: sealed.suffix(tagByteCount))
            return Array(
                try ChaChaPoly.open(
                    box, using: SymmetricKey(data: key), authenticating: associatedData))
        } catch {
            return nil
        }
    }
}
