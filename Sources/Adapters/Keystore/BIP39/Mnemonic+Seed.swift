import Crypto
import Foundation
import _CryptoExtras

extension Mnemonic {
    /// The 64-byte BIP39 seed: PBKDF2-HMAC-SHA512 of the phrase, salt "mnemonic" + passphrase,
    /// 2,048 rounds, both strings in NFKD.
    ///
    /// The passphrase is the optional "25th word": a different one gives a different, equally
    /// valid wallet, so a typo is not detected here.
    public func seed(passphrase: String = "") -> [UInt8] {
        // English words are ASCII, so the phrase is already NFKD.
        var password = Array(phrase.utf8)
        var salt = Array(("mnemonic" + passphrase.decomposedStringWithCompatibilityMapping).utf8)
        defer {
            wipe(&password)
            wipe(&salt)
        }
        let key: SymmetricKey
        do {
            // BIP39 fixes 2,048 rounds; swift-crypto's checked entry point insists on 210,000,
            // hence the unchecked one.
            key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: .sha512, outputByteCount: 64,
                unsafeUncheckedRounds: 2048)
        } catch {
            // BoringSSL's PBKDF2 fails only when it cannot allocate.
            fatalError("PBKDF2-HMAC-SHA512 failed: \(error)")
        }
        return key.bytes
    }
}
