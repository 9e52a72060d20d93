import Foundation
import Keystore
import NodeKit
import Posix
import Tender

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
    public static let headerSize = checkRange.upperBound
    static let tagSize = ChaCha20Poly1305.tagByteCount

    // Where each header field is, after the magic (Docs/BACKUP.md's table).
    static let versionOffset = 8
    static let kdfOffset = 9
    static let nRange = 10..<14
    static let rOffset = 14
    static let pOffset = 15
    static let cipherOffset = 16
    static let saltRange = 17..<49
    static let nonceRange = 49..<61
    static let checkRange = 61..<77

    // What scrypt's 64 bytes are: the cipher's key, then the passphrase check.
    static let derivedSize = 64
    static let keyRange = 0..<ChaCha20Poly1305.keyByteCount
    static let derivedCheckRange = 32..<48

    /// Seals `payload` under `passphrase`, salt and nonce from `generator`.
    public static func seal(
        _ payload: [UInt8], passphrase: String, cost: ScryptCost,
        using generator: inout some RandomNumberGenerator
    ) throws(NodeError) -> [UInt8] {
        let salt = randomBytes(saltRange.count, using: &generator)
        let nonce = randomBytes(nonceRange.count, using: &generator)
        var derived = try derive(passphrase, cost: cost, salt: salt)
        defer { secureWipe(&derived) }
        var header = magic + [version, scrypt]
        header += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: UInt32(cost.n) >> $0) }
        header += [UInt8(cost.r), UInt8(cost.p), chaChaPoly]
        header += salt + nonce + derived[derivedCheckRange]
        assert(header.count == headerSize)
        // One array, sized once: the header, then the cipher's output appended to it.
        var file: [UInt8] = []
        file.reserveCapacity(headerSize + payload.count + tagSize)
        file += header
        do {
            try ChaCha20Poly1305.seal(
                payload, key: derived[keyRange], nonce: nonce, authenticating: header,
                appendingTo: &file)
        } catch {
            throw NodeError(.io("cannot seal the backup: \(error)"))
        }
        return file
    }

    /// The payload of a sealed file, after checking the header, the passphrase and the tag.
    /// Nothing is returned unless every byte is as written.
    public static func open(_ file: [UInt8], passphrase: String) throws(NodeError) -> [UInt8] {
        guard file.starts(with: magic) else {
            throw BackupError.malformed("it does not start with TENDERBK")
        }
        guard file.count >= headerSize + tagSize else {
            throw BackupError.malformed("it is truncated (\(file.count) bytes)")
        }
        guard file[versionOffset] == version else {
            throw BackupError.malformed(
                "format version \(file[versionOffset]) is not one this tender reads (\(version))")
        }
        guard file[kdfOffset] == scrypt, file[cipherOffset] == chaChaPoly else {
            throw BackupError.malformed(
                "unknown key derivation \(file[kdfOffset]) or cipher \(file[cipherOffset])")
        }
        let n = file[nRange].reduce(0) { $0 << 8 | Int($1) }
        let cost: ScryptCost
        do { cost = try ScryptCost(n: n, r: Int(file[rOffset]), p: Int(file[pOffset])) } catch {
            throw BackupError.malformed(error.message)
        }
        let header = Array(file[..<headerSize])
        var derived = try derive(passphrase, cost: cost, salt: Array(file[saltRange]))
        defer { secureWipe(&derived) }
        guard constantTimeEqual(derived[derivedCheckRange], file[checkRange]) else {
            throw NodeError(
                .passphrase("wrong passphrase for this backup (or its header was altered)"))
        }
        guard
            let payload = ChaCha20Poly1305.open(
                file[headerSize...], key: derived[keyRange], nonce: file[nonceRange],
                authenticating: header)
        else {
            throw BackupError.malformed(
                "it was altered, truncated or damaged (authentication failed)")
        }
        return payload
    }

    private static func derive(
        _ passphrase: String, cost: ScryptCost, salt: [UInt8]
    ) throws(NodeError) -> [UInt8] {
        do {
            return try cost.deriveKey(passphrase: passphrase, salt: salt, byteCount: derivedSize)
        } catch {
            throw NodeError(.io(error.message))
        }
    }
}
