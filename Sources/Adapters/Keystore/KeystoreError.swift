/// Why a key file or a derivation failed: a precise `kind` for callers to branch on and a
/// message for people.
///
/// Messages never contain key material, passphrases or decrypted bytes; they may name a path, a
/// JSON field or a derivation path, which are not secret.
public struct KeystoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No file at the path.
        case fileMissing
        /// The file exists but could not be opened or read (permissions, a directory, I/O).
        case unreadable
        /// The file is not a key file: bad JSON, or a field missing or of the wrong form.
        /// `field` names it.
        case malformed
        /// The file's `version` is not one this library reads.
        case unsupportedVersion
        /// The key-derivation function is unknown, or its parameters are outside the accepted
        /// bounds (which also stop a crafted file from demanding gigabytes of memory).
        case unsupportedKDF
        /// The cipher is unknown.
        case unsupportedCipher
        /// Authentication failed: the passphrase is wrong, or the file was altered.
        case wrongPassphrase
        /// The decrypted key does not belong to the address stored beside it.
        case addressMismatch
        /// Writing the file failed (temporary file, sync, rename); nothing was replaced.
        case writeFailed
        /// A file is already at the destination and overwriting was not asked for.
        case fileExists
        /// A derivation path did not parse.
        case invalidDerivationPath
        /// A BIP32 seed is not 16 to 64 bytes.
        case invalidSeed
        /// BIP32 produced an invalid key (probability below 2^-127; the spec says to skip
        /// to the next index, which a fixed path cannot do).
        case derivationFailed
    }

    public let kind: Kind
    /// Human-readable, free of secrets.
    public let message: String
    /// For `.malformed`: the JSON field at fault, dotted (`kdf.salt`), or nil for the whole file.
    public let field: String?

    public init(_ kind: Kind, _ message: String, field: String? = nil) {
        self.kind = kind
        self.message = message
        self.field = field
    }

    public var description: String { message }
}

extension KeystoreError {
    static func malformed(_ field: String?, _ reason: String) -> KeystoreError {
        let subject = field.map { "field \"\($0)\"" } ?? "key file"
        return KeystoreError(.malformed, "malformed key file: \(subject) \(reason)", field: field)
    }
}
