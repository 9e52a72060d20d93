import Crypto
import Foundation
import Keystore
import NodeKit
import Posix
import _CryptoExtras

/// A backup file's encryption (Docs/BACKUP.md): a 77-byte header, then the payload sealed
/// with ChaCha20-Poly1305 (ciphertext, then the 16-byte tag), the whole header bound as
/// associated data. The key is scrypt of the passphrase (NFKD UTF-8, as key files use it)
/// and a fresh salt: 64 bytes, the first 32 the cipher's key, the next 16 a passphrase
/// check kept in the header, so a wrong passphrase is told apart from a damaged file.
///
/// Header: magic "TENDERBK" (8), version 1 (1), KDF 1 = scrypt (1), N (4, big-endian),
/// r (1), p (1), cipher 1 = ChaCha20-Poly1305 (1), salt (32), nonce (12), check (16).
public enum BackupSeal {
    static let magic = Array("TENDERBK".utf8)
    static let version: UInt8 = 1
    static let scrypt: UInt8 = 1
    static let chaChaPoly: UInt8 = 1
    public static let headerSize = 77
    static let tagSize = 16

    /// Seals `payload` under `passphrase`, salt and nonce from `generator`.
    public static func seal(
        _ payload: [UInt8], passphrase: String, cost: ScryptCost,
        using generator: inout some RandomNumberGenerator
    ) throws(NodeError) -> [UInt8] {
        let salt = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let nonce = (0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var derived = try derive(passphrase, cost: cost, salt: salt)
        defer { secureWipe(&derived) }
        let header =
            magic + [version, scrypt] + bigEndian(UInt32(cost.n)) + [UInt8(cost.r), UInt8(cost.p)]
            + [chaChaPoly] + salt + nonce + Array(derived[32..<48])
        do {
            let box = try ChaChaPoly.seal(
                payload, using: SymmetricKey(data: derived[0..<32]),
                nonce: ChaChaPoly.Nonce(data: nonce), authenticating: header)
            return header + Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw NodeError(.io("cannot seal the backup: \(error)"))
        }
    }

    /// The payload of a sealed file, after checking the header, the passphrase and the tag.
    /// Nothing is returned unless every byte is as written.
    public static func open(_ file: [UInt8], passphrase: String) throws(NodeError) -> [UInt8] {
        guard file.count >= headerSize + tagSize else {
            throw file.starts(with: magic)
                ? BackupError.malformed("it is truncated (\(file.count) bytes)")
                : BackupError.malformed("it does not start with TENDERBK")
        }
        guard file.starts(with: magic) else {
            throw BackupError.malformed("it does not start with TENDERBK")
        }
        guard file[8] == version else {
            throw BackupError.malformed(
                "format version \(file[8]) is not one this tender reads (\(version))")
        }
        guard file[9] == scrypt, file[16] == chaChaPoly else {
            throw BackupError.malformed("unknown key derivation \(file[9]) or cipher \(file[16])")
        }
        let n = file[10..<14].reduce(0) { $0 << 8 | Int($1) }
        let cost: ScryptCost
        do { cost = try ScryptCost(n: n, r: Int(file[14]), p: Int(file[15])) } catch {
            throw BackupError.malformed(error.message)
        }
        let header = Array(file[0..<headerSize])
        var derived = try derive(passphrase, cost: cost, salt: Array(file[17..<49]))
        defer { secureWipe(&derived) }
        guard constantTimeEqual(derived[32..<48], file[61..<77]) else {
            throw NodeError(
                .passphrase("wrong passphrase for this backup (or its header was altered)"))
        }
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: ChaChaPoly.Nonce(data: file[49..<61]),
                ciphertext: file[headerSize..<(file.count - tagSize)],
                tag: file[(file.count - tagSize)...])
            return Array(
                try ChaChaPoly.open(
                    box, using: SymmetricKey(data: derived[0..<32]), authenticating: header))
        } catch {
            throw BackupError.malformed(
                "it was altered, truncated or damaged (authentication failed)")
        }
    }

    private static func derive(
        _ passphrase: String, cost: ScryptCost, salt: [UInt8]
    ) throws(NodeError) -> [UInt8] {
        var password = Array(passphrase.decomposedStringWithCompatibilityMapping.utf8)
        defer { secureWipe(&password) }
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: 64, rounds: cost.n,
                blockSize: cost.r, parallelism: cost.p)
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw NodeError(.io("scrypt refused \(cost): \(error)"))
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    private static func constantTimeEqual(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
