import Crypto
import Foundation
import _CryptoExtras

/// scrypt's cost parameters (RFC 7914): `n` (CPU/memory cost, a power of two), `r` (block size),
/// `p` (parallelism). Memory is about 128·n·r bytes, time about n·r·p.
///
/// Stored in every key file, so the cost can be raised for new files while old ones still open.
/// The bounds are checked both when encrypting and when loading: a crafted file must not make
/// the node allocate gigabytes or spin for hours before the passphrase is even checked.
public struct ScryptCost: Sendable, Hashable, CustomStringConvertible {
    public let n: Int
    public let r: Int
    public let p: Int

    /// N = 2^15, r = 8, p = 1: 32 MiB and roughly 0.1 s on a desktop core, several times that
    /// on a Raspberry Pi, paid once when the node starts.
    public static let standard = ScryptCost(unchecked: 1 << 15, 8, 1)

    /// Largest accepted `n` (2^20: 1 GiB with r = 8).
    public static let maximumN = 1 << 20
    /// The least N a new key file may use: below it a stolen file's passphrase is cheap to
    /// guess (files with less are still read, for keys made elsewhere).
    public static let minimumNewN = 1 << 10
    /// Largest accepted `r` and `p`.
    public static let maximumR = 16
    public static let maximumP = 16
    /// Largest accepted 128·n·r, the size of scrypt's table.
    public static let maximumMemory = 1 << 30

    /// Validates the parameters; tests pass a small `n` to stay fast.
    public init(n: Int, r: Int = 8, p: Int = 1) throws(KeystoreError) {
        if let problem = Self.problem(n: n, r: r, p: p) {
            throw KeystoreError(.unsupportedKDF, "scrypt parameters \(problem)")
        }
        self.init(unchecked: n, r, p)
    }

    private init(unchecked n: Int, _ r: Int, _ p: Int) {
        self.n = n
        self.r = r
        self.p = p
    }

    public var description: String { "scrypt(N=\(n), r=\(r), p=\(p))" }

    /// What is wrong with a parameter set, or nil.
    static func problem(n: Int, r: Int, p: Int) -> String? {
        guard n >= 2, n <= maximumN, n & (n - 1) == 0 else {
            return "N=\(n) is not a power of two between 2 and 2^20"
        }
        guard (1...maximumR).contains(r) else { return "r=\(r) is not between 1 and \(maximumR)" }
        guard (1...maximumP).contains(p) else { return "p=\(p) is not between 1 and \(maximumP)" }
        guard 128 * n * r <= maximumMemory else { return "N·r needs more than 1 GiB" }
        // RFC 7914 requires N < 2^(128·r/8); BoringSSL refuses the call otherwise.
        guard 16 * r > 20 || n < 1 << (16 * r) else { return "N=\(n) is too large for r=\(r)" }
        return nil
    }

    /// scrypt of `passphrase` and `salt` into `byteCount` bytes, as key files and backups
    /// derive their keys: the passphrase as NFKD-normalised UTF-8 (the same words typed through
    /// different input methods give the same key), that copy wiped once used. The caller owns
    /// (and wipes) the result.
    public func deriveKey(
        passphrase: String, salt: [UInt8], byteCount: Int
    ) throws(KeystoreError) -> [UInt8] {
        try symmetricKey(passphrase: passphrase, salt: salt, byteCount: byteCount).bytes
    }

    /// `deriveKey(passphrase:salt:byteCount:)` as a key for swift-crypto (key files).
    func symmetricKey(
        passphrase: String, salt: [UInt8], byteCount: Int
    ) throws(KeystoreError) -> SymmetricKey {
        var password = Array(passphrase.decomposedStringWithCompatibilityMapping.utf8)
        defer { wipe(&password) }
        return try deriveKey(password: password, salt: salt, byteCount: byteCount)
    }

    /// scrypt of `password` and `salt` into `byteCount` bytes.
    ///
    /// swift-crypto sizes BoringSSL's memory limit as 128·N·r·p plus one page, which covers the
    /// 128·r·(N + p + 1) scrypt needs for every parameter set `problem` accepts (r ≤ 16).
    func deriveKey(
        password: [UInt8], salt: [UInt8], byteCount: Int
    ) throws(KeystoreError) -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: byteCount, rounds: n, blockSize: r,
                parallelism: p)
        } catch {
            throw KeystoreError(.unsupportedKDF, "scrypt refused \(self) (\(error))")
        }
    }
}
