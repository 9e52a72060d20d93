import Foundation
import Posix

// Reading and writing key files. Writes are atomic and durable: a crash leaves either the old
// file or the new one, never a torn or empty key file, and the file is never readable by others
// even for an instant.

extension KeyFile {
    /// A key file is a few hundred bytes; anything much larger is not one (and is not read
    /// into memory whole).
    static let maximumFileSize = 64 * 1024

    /// Reads and parses the key file at `path`.
    ///
    /// Errors: `.fileMissing`, `.unreadable`, then those of `init(json:)`. Loose permissions are
    /// not an error here; ask `permissionsAreTooOpen(at:)` and decide.
    public static func load(from path: String) throws(KeystoreError) -> KeyFile {
        let bytes: [UInt8]?
        do { bytes = try DurableFile.read(path, limit: maximumFileSize) } catch {
            if error.code == SystemError.notFound || error.code == SystemError.notDirectory {
                throw KeystoreError(.fileMissing, "no key file at \(path)")
            }
            throw KeystoreError(.unreadable, "cannot read key file \(path): \(error.reason)")
        }
        guard let bytes else { throw tooLarge }
        return try KeyFile(json: Data(bytes))
    }

    /// Parses a key file's bytes already in memory (a backup's copy), as `load` would the
    /// file: `.malformed` when larger than a key file is read, then the errors of
    /// `init(json:)`.
    public init(fileContents bytes: [UInt8]) throws(KeystoreError) {
        guard bytes.count <= Self.maximumFileSize else { throw Self.tooLarge }
        try self.init(json: Data(bytes))
    }

    private static var tooLarge: KeystoreError {
        .malformed(nil, "is larger than \(maximumFileSize / 1024) KiB")
    }

    /// True when the file at `path` grants any permission to its group or to others.
    ///
    /// A library cannot warn; the CLI decides whether to refuse such a file or say so.
    public static func permissionsAreTooOpen(at path: String) throws(KeystoreError) -> Bool {
        do {
            return try DurableFile.permissions(path) & 0o077 != 0
        } catch {
            if error.code == SystemError.notFound || error.code == SystemError.notDirectory {
                throw KeystoreError(.fileMissing, "no key file at \(path)")
            }
            throw KeystoreError(.unreadable, "cannot stat key file \(path): \(error.reason)")
        }
    }

    /// Writes the file atomically with mode 0600 (`DurableFile.write`): a new file created
    /// 0600 (never readable by others, even for an instant), fsynced, moved into place, and
    /// the folder fsynced, so the new name survives a power cut.
    ///
    /// Unless `overwrite` is true, an existing file at `path` is never replaced (`.fileExists`):
    /// losing a key file loses the key. The no-replace move is a hard link then an unlink, so
    /// the directory's filesystem must support hard links (ext4, btrfs, xfs, tmpfs do).
    public func write(to path: String, overwrite: Bool = false) throws(KeystoreError) {
        let durability: DurableFile.Durability
        do {
            durability = try DurableFile.write(
                Array(json()), to: path, mode: 0o600, replacing: overwrite)
        } catch {
            if error.code == SystemError.exists {
                throw KeystoreError(.fileExists, "a file already exists at \(path)")
            }
            throw KeystoreError(.writeFailed, "cannot write key file \(path): \(error)")
        }
        if case .folderNotSynced(let error) = durability {
            throw KeystoreError(
                .writeFailed,
                "key file \(path) was written but its folder could not be synced: \(error.reason)")
        }
    }
}
