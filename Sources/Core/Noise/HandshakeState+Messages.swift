import Crypto

// WriteMessage and ReadMessage (§5.3) for the token set XX and IK use; no PSK tokens.
extension HandshakeState {
    mutating func write(payload: [UInt8]) throws(NoiseError) -> [UInt8] {
        let size = tokensLength(hasKey: symmetric.hasKey) + payload.count
        guard size <= NoiseLimits.maxMessageLength else {
            throw .messageTooLarge(size: size, limit: NoiseLimits.maxMessageLength)
        }
        var message = [UInt8]()
        message.reserveCapacity(size)
        for token in tokens {
            switch token {
            case .e:
                let ephemeral = takeEphemeral()
                localEphemeral = ephemeral
                let publicKey = Array(ephemeral.publicKey.rawRepresentation)
                message += publicKey
                symmetric.mixHash(publicKey)
            case .s:
                message += try symmetric.encryptAndHash(
                    Array(localStatic.publicKey.rawRepresentation))
            case .ee, .es, .se, .ss:
                try mixKey(agreeing: token)
            }
        }
        message += try symmetric.encryptAndHash(payload)
        return message
    }

    mutating func read(_ message: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard message.count <= NoiseLimits.maxMessageLength else {
            throw .messageTooLarge(size: message.count, limit: NoiseLimits.maxMessageLength)
        }
        let minimum = tokensLength(hasKey: symmetric.hasKey)
        guard message.count >= minimum else {
            throw .messageTooShort(
                handshakeMessage: messageNumber, size: message.count, minimum: minimum)
        }
        var rest = message[...]
        for token in tokens {
            switch token {
            case .e:
                let publicKey = Array(rest.prefix(NoiseLimits.keyLength))
                rest = rest.dropFirst(NoiseLimits.keyLength)
                remoteEphemeral = Self.publicKey(publicKey)
                symmetric.mixHash(publicKey)
            case .s:
                let length = NoiseLimits.keyLength + (symmetric.hasKey ? NoiseLimits.tagLength : 0)
                let ciphertext = Array(rest.prefix(length))
                rest = rest.dropFirst(length)
                remoteStaticKey = Self.publicKey(try decryptAndHash(ciphertext, .staticKey))
            case .ee, .es, .se, .ss:
                try mixKey(agreeing: token)
            }
        }
        return try decryptAndHash(Array(rest), .payload)
    }

    /// Bytes the tokens of the current message take, with the payload's tag: the shortest
    /// message that can be valid. `hasKey` is whether a key exists before its first token.
    private func tokensLength(hasKey: Bool) -> Int {
        var hasKey = hasKey
        var length = 0
        for token in tokens {
            switch token {
            case .e: length += NoiseLimits.keyLength
            case .s: length += NoiseLimits.keyLength + (hasKey ? NoiseLimits.tagLength : 0)
            case .ee, .es, .se, .ss: hasKey = true
            }
        }
        return length + (hasKey ? NoiseLimits.tagLength : 0)
    }

    private mutating func decryptAndHash(
        _ ciphertext: [UInt8], _ field: HandshakeField
    ) throws(NoiseError) -> [UInt8] {
        do {
            return try symmetric.decryptAndHash(ciphertext)
        } catch .transportDecryptionFailed {
            throw .handshakeDecryptionFailed(handshakeMessage: messageNumber, field: field)
        }
    }

    /// MixKey(DH(...)) for a DH token, with the keys each role uses for it (§7.1).
    private mutating func mixKey(agreeing token: Token) throws(NoiseError) {
        let isInitiator = role == .initiator
        let (local, remote): (NoisePrivateKey?, NoisePublicKey?) =
            switch token {
            case .ee: (localEphemeral, remoteEphemeral)
            case .es:
                isInitiator ? (localEphemeral, remoteStaticKey) : (localStatic, remoteEphemeral)
            case .se:
                isInitiator ? (localStatic, remoteEphemeral) : (localEphemeral, remoteStaticKey)
            case .ss: (localStatic, remoteStaticKey)
            case .e, .s: preconditionFailure("\(token) is not a Diffie-Hellman token")
            }
        guard let local, let remote else {
            preconditionFailure("\(pattern) reached \(token) without both keys")
        }
        // A low-order public key gives the all-zero secret, which the spec allows but which
        // carries nothing secret: refuse it, as libsodium and OpenSSL do (swift-crypto on
        // Linux returns it).
        guard let secret = try? local.sharedSecretFromKeyAgreement(with: remote),
            !secret.withUnsafeBytes({ $0.allSatisfy { $0 == 0 } })
        else { throw .keyAgreementFailed(handshakeMessage: messageNumber) }
        symmetric.mixKey(secret)
    }

    private static func publicKey(_ bytes: [UInt8]) -> NoisePublicKey {
        do {
            return try NoisePublicKey(rawRepresentation: bytes)
        } catch {
            preconditionFailure("a 32-byte Curve25519 public key was refused: \(error)")
        }
    }
}
