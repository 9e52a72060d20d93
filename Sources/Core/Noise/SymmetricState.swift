import Crypto

/// The chaining key, the handshake hash and the handshake's cipher (Noise §5.2), with
/// SHA-256 as HASH and HKDF built from HMAC-SHA256 exactly as §4.3 defines it.
struct SymmetricState: ~Copyable, Sendable {
    private var cipher = CipherState()
    private var chainingKey: SymmetricKey
    /// h: every public key, prologue byte and ciphertext so far.
    private(set) var handshakeHash: [UInt8]

    /// InitializeSymmetric: a name of at most 32 bytes is used as it is, padded with zeros;
    /// a longer one is hashed.
    init(protocolName: String) {
        let name = Array(protocolName.utf8)
        let hash =
            name.count <= NoiseLimits.keyLength
            ? name + [UInt8](repeating: 0, count: NoiseLimits.keyLength - name.count)
            : Array(SHA256.hash(data: name))
        handshakeHash = hash
        chainingKey = SymmetricKey(data: hash)
    }

    var hasKey: Bool { cipher.hasKey }

    /// MixKey: ck, k = HKDF(ck, DH output); the cipher starts again at nonce 0.
    mutating func mixKey(_ secret: SharedSecret) {
        let (nextChainingKey, key) = secret.withUnsafeBytes { hkdf($0) }
        chainingKey = nextChainingKey
        cipher.initializeKey(key)
    }

    /// MixHash: h = SHA-256(h ‖ data).
    mutating func mixHash(_ data: [UInt8]) {
        var hasher = SHA256()
        hasher.update(data: handshakeHash)
        hasher.update(data: data)
        handshakeHash = Array(hasher.finalize())
    }

    /// EncryptAndHash: encrypts under h as associated data (plaintext while there is no key)
    /// and mixes the ciphertext into h.
    mutating func encryptAndHash(_ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        let ciphertext = try cipher.encrypt(plaintext, associatedData: handshakeHash)
        mixHash(ciphertext)
        return ciphertext
    }

    /// DecryptAndHash: the inverse of `encryptAndHash`.
    mutating func decryptAndHash(_ ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        let plaintext = try cipher.decrypt(ciphertext, associatedData: handshakeHash)
        mixHash(ciphertext)
        return plaintext
    }

    /// Split: the initiator-to-responder and responder-to-initiator transport ciphers,
    /// HKDF(ck, empty). The chaining key goes with this state.
    consuming func split() -> TransportCipherPair {
        let (first, second) = [UInt8]().withUnsafeBytes { hkdf($0) }
        return TransportCipherPair(
            initiatorToResponder: CipherState(key: first),
            responderToInitiator: CipherState(key: second))
    }

    /// Drops the keys after a failure.
    mutating func close() {
        cipher.close()
        chainingKey = SymmetricKey(data: [UInt8](repeating: 0, count: NoiseLimits.keyLength))
    }

    /// HKDF(ck, input) with two outputs (§4.3): temp = HMAC(ck, input),
    /// out1 = HMAC(temp, 0x01), out2 = HMAC(temp, out1 ‖ 0x02).
    private func hkdf(_ input: UnsafeRawBufferPointer) -> (SymmetricKey, SymmetricKey) {
        var extract = HMAC<SHA256>(key: chainingKey)
        extract.update(data: input)
        let tempKey = SymmetricKey(data: extract.finalize())
        var first = HMAC<SHA256>(key: tempKey)
        first.update(data: [0x01])
        let output1 = first.finalize()
        var second = HMAC<SHA256>(key: tempKey)
        output1.withUnsafeBytes { second.update(data: $0) }
        second.update(data: [0x02])
        return (SymmetricKey(data: output1), SymmetricKey(data: second.finalize()))
    }
}

/// The two ciphers Split makes, named by direction.
struct TransportCipherPair: ~Copyable, Sendable {
    var initiatorToResponder: CipherState
    var responderToInitiator: CipherState
}
