import Crypto

/// A ChaCha20-Poly1305 key and its 64-bit message counter (Noise §5.1).
///
/// Non-copyable on purpose: a copy would encrypt two messages under the same nonce. Any error
/// closes it; the key is dropped then (swift-crypto zeroes a `SymmetricKey`'s bytes when its
/// last reference goes).
public struct CipherState: ~Copyable, Sendable {
    private var key: SymmetricKey?
    /// The nonce of the next message; 2^64 - 1 is reserved and never used.
    public private(set) var nonce: UInt64
    private var isClosed = false

    /// No key yet: encryption passes plaintext through (the start of a handshake).
    init() {
        key = nil
        nonce = 0
    }

    /// `nonce` other than 0 only for tests of exhaustion.
    init(key: SymmetricKey, nonce: UInt64 = 0) {
        self.key = key
        self.nonce = nonce
    }

    var hasKey: Bool { key != nil }

    /// InitializeKey: a new key, the counter back to 0.
    mutating func initializeKey(_ key: SymmetricKey) {
        self.key = key
        nonce = 0
    }

    /// Encrypts a transport message of at most `NoiseLimits.maxPlaintextLength` bytes.
    public mutating func encrypt(_ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        try encrypt(plaintext, associatedData: [])
    }

    /// Decrypts a transport message; a replayed, reordered or altered one fails.
    public mutating func decrypt(_ message: [UInt8]) throws(NoiseError) -> [UInt8] {
        try decrypt(message, associatedData: [])
    }

    /// EncryptWithAd (plaintext through when there is no key yet).
    mutating func encrypt(
        _ plaintext: [UInt8], associatedData: [UInt8]
    ) throws(NoiseError) -> [UInt8] {
        try failingClosed { (cipher: inout CipherState) throws(NoiseError) in
            try cipher.seal(plaintext, associatedData: associatedData)
        }
    }

    /// DecryptWithAd (ciphertext through when there is no key yet). On failure the nonce
    /// stays where it was, but the state is closed anyway.
    mutating func decrypt(
        _ message: [UInt8], associatedData: [UInt8]
    ) throws(NoiseError) -> [UInt8] {
        try failingClosed { (cipher: inout CipherState) throws(NoiseError) in
            try cipher.open(message, associatedData: associatedData)
        }
    }

    /// Closes for good (a failure elsewhere in the session).
    mutating func close() {
        isClosed = true
        key = nil
    }

    private mutating func failingClosed(
        _ body: (inout CipherState) throws(NoiseError) -> [UInt8]
    ) throws(NoiseError) -> [UInt8] {
        guard !isClosed else { throw .closed }
        do throws(NoiseError) {
            return try body(&self)
        } catch {
            close()
            throw error
        }
    }

    private mutating func seal(
        _ plaintext: [UInt8], associatedData: [UInt8]
    ) throws(NoiseError) -> [UInt8] {
        let size = plaintext.count + (hasKey ? NoiseLimits.tagLength : 0)
        guard size <= NoiseLimits.maxMessageLength else {
            throw .messageTooLarge(size: size, limit: NoiseLimits.maxMessageLength)
        }
        guard let key else { return plaintext }
        let nonce = try takeNonce()
        do {
            let box = try ChaChaPoly.seal(
                plaintext, using: key, nonce: nonce, authenticating: associatedData)
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            // Only a malformed nonce or key makes sealing fail; both are built here.
            preconditionFailure("ChaCha20-Poly1305 refused to seal: \(error)")
        }
    }

    private mutating func open(
        _ message: [UInt8], associatedData: [UInt8]
    ) throws(NoiseError) -> [UInt8] {
        guard message.count <= NoiseLimits.maxMessageLength else {
            throw .messageTooLarge(size: message.count, limit: NoiseLimits.maxMessageLength)
        }
        guard let key else { return message }
        guard message.count >= NoiseLimits.tagLength else {
            throw .transportMessageTooShort(size: message.count)
        }
        let counter = self.nonce
        let nonce = try takeNonce()
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: nonce, ciphertext: message.dropLast(NoiseLimits.tagLength),
                tag: message.suffix(NoiseLimits.tagLength))
            return Array(try ChaChaPoly.open(box, using: key, authenticating: associatedData))
        } catch {
            self.nonce = counter
            throw .transportDecryptionFailed(nonce: counter)
        }
    }

    /// The current nonce as ChaCha20-Poly1305 takes it (4 zero bytes, then the counter
    /// little-endian), and the counter moved on.
    private mutating func takeNonce() throws(NoiseError) -> ChaChaPoly.Nonce {
        guard nonce < UInt64.max else { throw .nonceExhausted }
        var bytes = [UInt8](repeating: 0, count: 12)
        for index in 0..<8 { bytes[4 + index] = UInt8(truncatingIfNeeded: nonce >> (8 * index)) }
        nonce += 1
        do {
            return try ChaChaPoly.Nonce(data: bytes)
        } catch {
            preconditionFailure("a 12-byte ChaCha20-Poly1305 nonce was refused: \(error)")
        }
    }
}
