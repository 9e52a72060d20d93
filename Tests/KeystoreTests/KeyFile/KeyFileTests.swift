import Foundation
import Secp256k1
import TenderTestSupport
import Testing

@testable import Keystore

/// Encryption and decryption, with a cheap scrypt cost so the suite stays fast.
@Suite struct KeyFileTests {
    static let cheap = try! ScryptCost(n: 1 << 10, r: 8, p: 1)
    static let passphrase = "correct horse battery staple"

    static func key(_ seed: UInt64 = 1) -> PrivateKey {
        var generator = SeededGenerator(seed: seed)
        return PrivateKey.generate(using: &generator)
    }

    static func sealed(_ key: PrivateKey = key(), passphrase: String = passphrase) throws -> KeyFile
    {
        var generator = SeededGenerator(seed: 42)
        return try KeyFile(
            encrypting: key, passphrase: passphrase, cost: cheap, using: &generator)
    }

    @Test func roundTrips() throws {
        let key = Self.key()
        let file = try Self.sealed(key)
        #expect(secretBytes(try file.decrypt(passphrase: Self.passphrase)) == secretBytes(key))
        #expect(file.address == ethereumAddress(key.publicKey))
        #expect(file.cost == Self.cheap)
        #expect(file.salt.count == 32)
        #expect(file.nonce.count == 12)
        #expect(file.ciphertext.count == 48)
        #expect(!Data(file.ciphertext).contains(Data(secretBytes(key))))
    }

    @Test func roundTripsThroughJSON() throws {
        let file = try Self.sealed()
        let reparsed = try KeyFile(json: file.json())
        #expect(reparsed == file)
        #expect(
            secretBytes(try reparsed.decrypt(passphrase: Self.passphrase))
                == secretBytes(Self.key()))
    }

    @Test func roundTripsAtTheStandardCost() throws {
        let key = Self.key(9)
        let file = try KeyFile(encrypting: key, passphrase: Self.passphrase)
        #expect(file.cost == .standard)
        #expect(secretBytes(try file.decrypt(passphrase: Self.passphrase)) == secretBytes(key))
    }

    @Test func saltAndNonceComeFromTheGenerator() throws {
        #expect(try Self.sealed() == Self.sealed())
        let fresh = try KeyFile(
            encrypting: Self.key(), passphrase: Self.passphrase, cost: Self.cheap)
        let other = try KeyFile(
            encrypting: Self.key(), passphrase: Self.passphrase, cost: Self.cheap)
        #expect(fresh.salt != other.salt)
        #expect(fresh.nonce != other.nonce)
    }

    @Test func refusesAWrongPassphrase() throws {
        let file = try Self.sealed()
        let error = keystoreError {
            _ = try file.decrypt(passphrase: "Correct horse battery staple")
        }
        #expect(error?.kind == .wrongPassphrase)
        #expect(error?.message == "wrong passphrase (or the key file was altered)")
        #expect(error?.description.contains("horse") == false)
    }

    @Test func acceptsAnEmptyPassphrase() throws {
        let file = try Self.sealed(passphrase: "")
        #expect(secretBytes(try file.decrypt(passphrase: "")) == secretBytes(Self.key()))
        #expect(keystoreError { _ = try file.decrypt(passphrase: " ") }?.kind == .wrongPassphrase)
    }

    @Test func normalisesThePassphraseToNFKD() throws {
        let file = try Self.sealed(passphrase: "caf\u{e9} \u{fb01}")  // é, and the "fi" ligature
        #expect(throws: Never.self) { try file.decrypt(passphrase: "cafe\u{301} fi") }
    }

    @Test(arguments: 0..<48)
    func detectsAnyFlippedCiphertextByte(index: Int) throws {
        let file = try Self.sealed()
        var ciphertext = file.ciphertext
        ciphertext[index] ^= 0x01
        let tampered = KeyFile(
            address: file.address, cost: file.cost, salt: file.salt, nonce: file.nonce,
            ciphertext: ciphertext)
        let error = keystoreError { _ = try tampered.decrypt(passphrase: Self.passphrase) }
        #expect(error?.kind == .wrongPassphrase)
    }

    @Test func detectsATamperedNonceOrSalt() throws {
        let file = try Self.sealed()
        var nonce = file.nonce
        nonce[0] ^= 0x80
        var salt = file.salt
        salt[31] ^= 0x01
        for tampered in [
            KeyFile(
                address: file.address, cost: file.cost, salt: file.salt, nonce: nonce,
                ciphertext: file.ciphertext),
            KeyFile(
                address: file.address, cost: file.cost, salt: salt, nonce: file.nonce,
                ciphertext: file.ciphertext),
        ] {
            let error = keystoreError { _ = try tampered.decrypt(passphrase: Self.passphrase) }
            #expect(error?.kind == .wrongPassphrase)
        }
    }

    /// The address is associated data: swapping in another one (say, to pose as someone else's
    /// key file) fails authentication before any key is returned.
    @Test func detectsATamperedAddress() throws {
        let file = try Self.sealed()
        let otherAddress = ethereumAddress(Self.key(2).publicKey)
        var json = String(decoding: file.json(), as: UTF8.self)
        json = json.replacingOccurrences(of: file.address, with: otherAddress)
        let tampered = try KeyFile(json: Data(json.utf8))
        #expect(tampered.address == otherAddress)
        let error = keystoreError { _ = try tampered.decrypt(passphrase: Self.passphrase) }
        #expect(error?.kind == .wrongPassphrase)
    }

    /// A file sealed (with the passphrase) around the wrong address: authentic, but inconsistent.
    @Test func detectsAnAddressThatIsNotTheKeys() throws {
        let key = Self.key()
        let wrongAddress = ethereumAddress(Self.key(2).publicKey)
        let file = try key.withUnsafeBytes { secret in
            try KeyFile(
                sealing: secret, address: wrongAddress, passphrase: Self.passphrase,
                cost: Self.cheap, salt: [UInt8](repeating: 7, count: 32),
                nonce: [UInt8](repeating: 9, count: 12))
        }
        let error = keystoreError { _ = try file.decrypt(passphrase: Self.passphrase) }
        #expect(error?.kind == .addressMismatch)
        #expect(error?.message.contains(wrongAddress) == true)
    }
}
