import Crypto
import Testing

@testable import Noise

@Suite struct CipherStateTests {
    static let key = SymmetricKey(data: [UInt8](repeating: 0x5A, count: 32))

    /// The ChaCha20-Poly1305 nonce is 4 zero bytes then the counter little-endian: checked
    /// against swift-crypto given those 12 bytes directly, at a counter with 8 distinct bytes.
    @Test func nonceIsFourZeroBytesThenTheCounterLittleEndian() throws {
        var cipher = CipherState(key: Self.key, nonce: 0x0102_0304_0506_0708)
        let plaintext = Array("tea".utf8)
        let ours = try cipher.encrypt(plaintext)
        let box = try ChaChaPoly.seal(
            plaintext, using: Self.key,
            nonce: ChaChaPoly.Nonce(data: [0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1]))
        #expect(ours == Array(box.ciphertext) + Array(box.tag))
        #expect(cipher.nonce == 0x0102_0304_0506_0709)
    }

    /// The same record twice: the second is read under the next nonce and fails.
    @Test func replayFails() throws {
        var sender = CipherState(key: Self.key)
        var receiver = CipherState(key: Self.key)
        let record = try sender.encrypt(Array("once".utf8))
        #expect(try receiver.decrypt(record) == Array("once".utf8))
        #expect(throws: NoiseError.transportDecryptionFailed(nonce: 1)) {
            try receiver.decrypt(record)
        }
        #expect(throws: NoiseError.closed) { try receiver.decrypt(record) }
    }

    @Test func reorderingFails() throws {
        var sender = CipherState(key: Self.key)
        var receiver = CipherState(key: Self.key)
        _ = try sender.encrypt([1])
        let second = try sender.encrypt([2])
        #expect(throws: NoiseError.transportDecryptionFailed(nonce: 0)) {
            try receiver.decrypt(second)
        }
    }

    /// 2^64 - 2 is the last nonce used; then the cipher refuses, both ways, and stays closed.
    @Test func nonceExhaustion() throws {
        var sender = CipherState(key: Self.key, nonce: UInt64.max - 1)
        var receiver = CipherState(key: Self.key, nonce: UInt64.max - 1)
        let last = try sender.encrypt(Array("last".utf8))
        #expect(sender.nonce == UInt64.max)
        #expect(try receiver.decrypt(last) == Array("last".utf8))
        #expect(throws: NoiseError.nonceExhausted) { try sender.encrypt([]) }
        #expect(throws: NoiseError.closed) { try sender.encrypt([]) }
        #expect(throws: NoiseError.nonceExhausted) { try receiver.decrypt(last) }
        #expect(throws: NoiseError.closed) { try receiver.decrypt(last) }
    }

    @Test func transportMessagesStopAtTheNoiseLimit() throws {
        var sender = CipherState(key: Self.key)
        var receiver = CipherState(key: Self.key)
        let largest = [UInt8](repeating: 3, count: 65_519)
        let record = try sender.encrypt(largest)
        #expect(record.count == 65_535)
        #expect(try receiver.decrypt(record) == largest)

        #expect(throws: NoiseError.messageTooLarge(size: 65_536, limit: 65_535)) {
            try sender.encrypt(largest + [3])
        }
        #expect(throws: NoiseError.closed) { try sender.encrypt([]) }
        #expect(throws: NoiseError.messageTooLarge(size: 65_536, limit: 65_535)) {
            try receiver.decrypt(record + [0])
        }
        var shortReader = CipherState(key: Self.key)
        #expect(throws: NoiseError.transportMessageTooShort(size: 15)) {
            try shortReader.decrypt([UInt8](repeating: 0, count: 15))
        }
    }
}
