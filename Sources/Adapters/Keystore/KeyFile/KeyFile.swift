import Crypto
import Foundation
import Secp256k1

/// A 32-byte secp256k1 private key encrypted under a passphrase, as stored on disk.
///
/// scrypt(passphrase, salt; N, r, p) gives a 32-byte key; ChaCha20-Poly1305 with a random 12-byte
/// nonce seals the private key, authenticating the address as associated data. The address is
/// readable without the passphrase (to pick a file, or show whose it is) and cannot be changed
/// without the decryption failing. The passphrase is NFKD-normalised UTF-8, so the same words
/// typed through different input methods open the file.
///
/// A `KeyFile` value holds only public or encrypted data; decrypting yields a `PrivateKey`.
public struct KeyFile: Sendable, Equatable {
    /// The only format version written and read.
    public static let currentVersion = 1
    static let kdfName = "scrypt"
    static let cipherName = "chacha20-poly1305"
    static let saltByteCount = 32
    static let nonceByteCount = ChaCha20Poly1305.nonceByteCount
    /// 32 bytes of key then Poly1305's 16-byte tag.
    static let sealedByteCount = 32 + 16

    /// "0x" and 40 lowercase hex digits.
    public let address: String
    public let cost: ScryptCost
    /// 16 to 64 bytes (32 when written here).
    public let salt: [UInt8]
    /// 12 bytes.
    public let nonce: [UInt8]
    /// The encrypted key followed by the 16-byte Poly1305 tag: 48 bytes.
    public let ciphertext: [UInt8]

    init(address: String, cost: ScryptCost, salt: [UInt8], nonce: [UInt8], ciphertext: [UInt8]) {
        self.address = address
        self.cost = cost
        self.salt = salt
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    /// Encrypts `key` under `passphrase`, with salt and nonce from `generator` (inject a seeded
    /// one in tests; the other initialiser uses the system's CSPRNG).
    public init(
        encrypting key: PrivateKey, passphrase: String, cost: ScryptCost = .standard,
        using generator: inout some RandomNumberGenerator
    ) throws(KeystoreError) {
        let salt = randomBytes(Self.saltByteCount, using: &generator)
        let nonce = randomBytes(Self.nonceByteCount, using: &generator)
        let address = key.publicKey.keyFileAddress
        // `withUnsafeBytes` rethrows untyped errors, so the typed one travels in a `Result`.
        let sealed = key.withUnsafeBytes { secret in
            Result { () throws(KeystoreError) in
                try KeyFile(
                    sealing: secret, address: address, passphrase: passphrase, cost: cost,
                    salt: salt, nonce: nonce)
            }
        }
        self = try sealed.get()
    }

    public init(
        encrypting key: PrivateKey, passphrase: String, cost: ScryptCost = .standard
    ) throws(KeystoreError) {
        var generator = SystemRandomNumberGenerator()
        try self.init(encrypting: key, passphrase: passphrase, cost: cost, using: &generator)
    }

    /// Seals `secret` with `address` as associated data. Internal so tests can build a file whose
    /// address does not match its key, which the public initialisers never write.
    init(
        sealing secret: UnsafeRawBufferPointer, address: String, passphrase: String,
        cost: ScryptCost, salt: [UInt8], nonce: [UInt8]
    ) throws(KeystoreError) {
        let sealingKey = try Self.derive(passphrase: passphrase, cost: cost, salt: salt)
        let box: ChaChaPoly.SealedBox
        do {
            box = try ChaChaPoly.seal(
                secret, using: sealingKey, nonce: ChaChaPoly.Nonce(data: nonce),
                authenticating: Array(address.utf8))
        } catch {
            // Only a nonce of the wrong size makes sealing fail; callers pass 12 bytes.
            preconditionFailure("ChaCha20-Poly1305 refused to seal: \(error)")
        }
        self.init(
            address: address, cost: cost, salt: salt, nonce: nonce,
            ciphertext: Array(box.ciphertext) + Array(box.tag))
    }

    /// The private key, after checking the tag (`.wrongPassphrase` when the passphrase is wrong
    /// or any byte of the address, nonce or ciphertext changed) and that it owns the address.
    public func decrypt(passphrase: String) throws(KeystoreError) -> PrivateKey {
        let openingKey = try Self.derive(passphrase: passphrase, cost: cost, salt: salt)
        var plaintext: Data
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: nonce),
                ciphertext: ciphertext.dropLast(16), tag: ciphertext.suffix(16))
            plaintext = try ChaChaPoly.open(
                box, using: openingKey, authenticating: Array(address.utf8))
        } catch {
            throw KeystoreError(
                .wrongPassphrase, "wrong passphrase (or the key file was altered)")
        }
        defer { plaintext.resetBytes(in: plaintext.startIndex..<plaintext.endIndex) }
        // Authenticated, so a bad scalar was written by whoever knew the passphrase.
        guard let key = try? PrivateKey(bytes: plaintext) else {
            throw KeystoreError(
                .addressMismatch, "the key file decrypts to something that is not a private key")
        }
        guard key.publicKey.keyFileAddress == address else {
            throw KeystoreError(
                .addressMismatch,
                "the key file decrypts to a key that does not belong to its address \(address)")
        }
        return key
    }

    private static func derive(
        passphrase: String, cost: ScryptCost, salt: [UInt8]
    ) throws(KeystoreError) -> SymmetricKey {
        try cost.symmetricKey(
            passphrase: passphrase, salt: salt, byteCount: ChaCha20Poly1305.keyByteCount)
    }
}
