/// Application messages of any size up to a cap, over the transport ciphers of a finished
/// handshake.
///
/// Record rule (what `seal` writes and `open` accepts, byte for byte):
///
/// - The plaintext of `L` bytes is cut into `⌊L / 65,519⌋` full chunks of 65,519 bytes
///   followed by one final chunk of the remaining `L mod 65,519` bytes, which may be empty.
///   So there are always `⌊L / 65,519⌋ + 1` chunks, and the last one is shorter than 65,519.
/// - Each chunk, in order, is encrypted as one Noise transport message (ChaCha20-Poly1305
///   under the sender's transport cipher, empty associated data, the next nonce): a record
///   of chunk length + 16 bytes. Full chunks give records of exactly 65,535 bytes (the Noise
///   maximum); the final record has 16 to 65,534 bytes (16 for an empty final chunk).
/// - The sealed message is the records concatenated, with nothing between or around them:
///   `L + 16 × (⌊L / 65,519⌋ + 1)` bytes. An empty message is one record of 16 bytes; a
///   message of exactly 65,519 bytes is a 65,535-byte record then a 16-byte one.
/// - `open` cuts a sealed message of `N` bytes into `⌊N / 65,535⌋` records of 65,535 bytes
///   and a final record of `N mod 65,535` bytes, which must be at least 16 (a remainder of 0
///   means the final record is missing). A sealed message longer than the cap can seal to is
///   refused before anything is decrypted; the records are then decrypted in order.
///
/// The length of the message is carried by the record sizes alone: the short final record
/// ends it, so records cannot be dropped, added, reordered or moved between messages
/// without a decryption failure (the nonces are consecutive across messages).
///
/// Any error, sealing or opening (authentication, a size over the cap, an incomplete final
/// record), closes the channel in both directions for good: every later call throws
/// `.closed`. Non-copyable, so the nonces of a channel cannot be reused through a copy.
public struct SecureChannel: ~Copyable, Sendable {
    /// The longest application message, in bytes, sealed or opened.
    public let maxMessageLength: Int
    /// The handshake hash, for channel binding.
    public let handshakeHash: [UInt8]
    /// The peer's static public key, authenticated by the handshake.
    public let remoteStaticKey: NoisePublicKey
    private var sender: CipherState
    private var receiver: CipherState
    private var isClosed = false

    /// Plaintext bytes in one full record.
    public static let chunkLength = NoiseLimits.maxPlaintextLength

    public init(_ handshake: consuming HandshakeResult, maxMessageLength: Int) {
        precondition(maxMessageLength >= 0, "a negative message cap")
        self.maxMessageLength = maxMessageLength
        handshakeHash = handshake.handshakeHash
        remoteStaticKey = handshake.remoteStaticKey
        sender = handshake.sender
        receiver = handshake.receiver
    }

    /// From a handshake whose last message is through (`.handshakeIncomplete` otherwise).
    public init(
        handshake: consuming HandshakeState, maxMessageLength: Int
    ) throws(NoiseError) {
        self.init(try handshake.finish(), maxMessageLength: maxMessageLength)
    }

    /// The length `message` bytes seal to.
    public static func sealedLength(ofMessageLength length: Int) -> Int {
        length + NoiseLimits.tagLength * (length / chunkLength + 1)
    }

    /// The records of `message`, concatenated.
    public mutating func seal(_ message: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard !isClosed else { throw .closed }
        do throws(NoiseError) {
            guard message.count <= maxMessageLength else {
                throw NoiseError.applicationMessageTooLarge(
                    size: message.count, cap: maxMessageLength)
            }
            var sealed = [UInt8]()
            sealed.reserveCapacity(Self.sealedLength(ofMessageLength: message.count))
            var start = 0
            repeat {
                let end = min(start + Self.chunkLength, message.count)
                sealed += try sender.encrypt(Array(message[start..<end]))
                start += Self.chunkLength
            } while start <= message.count
            return sealed
        } catch {
            close()
            throw error
        }
    }

    /// The message `sealed` carries, after every record authenticates.
    public mutating func open(_ sealed: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard !isClosed else { throw .closed }
        do throws(NoiseError) {
            let limit = Self.sealedLength(ofMessageLength: maxMessageLength)
            guard sealed.count <= limit else {
                throw NoiseError.sealedMessageTooLarge(size: sealed.count, limit: limit)
            }
            let finalLength = sealed.count % NoiseLimits.maxMessageLength
            guard finalLength >= NoiseLimits.tagLength else {
                throw NoiseError.incompleteFinalRecord(size: finalLength)
            }
            let records = sealed.count / NoiseLimits.maxMessageLength + 1
            var message = [UInt8]()
            message.reserveCapacity(sealed.count - records * NoiseLimits.tagLength)
            for record in 0..<records {
                let start = record * NoiseLimits.maxMessageLength
                let end = min(start + NoiseLimits.maxMessageLength, sealed.count)
                do {
                    message += try receiver.decrypt(Array(sealed[start..<end]))
                } catch .transportDecryptionFailed {
                    throw NoiseError.recordDecryptionFailed(record: record, records: records)
                }
            }
            return message
        } catch {
            close()
            throw error
        }
    }

    private mutating func close() {
        isClosed = true
        sender.close()
        receiver.close()
    }
}
