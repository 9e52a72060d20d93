import Codecs
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        do {
            let descriptor = try SystemCalls.openForReading(path)
            defer { SystemCalls.closeDescriptor(descriptor) }
            bytes = try SystemCalls.readAll(descriptor, limit: maximumFileSize)
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR {
                throw KeystoreError(.fileMissing, "no key file at \(path)")
            }
            throw KeystoreError(.unreadable, "cannot read key file \(path): \(error.reason)")
        }
        guard let bytes else {
            throw .malformed(nil, "is larger than \(maximumFileSize / 1024) KiB")
        }
        return try KeyFile(json: Data(bytes))
    }

    /// True when the file at `path` grants any permission to its group or to others.
    ///
    /// A library cannot warn; the CLI decides whether to refuse such a file or say so.
    public static func permissionsAreTooOpen(at path: String) throws(KeystoreError) -> Bool {
        do {
            return try SystemCalls.permissions(path) & 0o077 != 0
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR {
                throw KeystoreError(.fileMissing, "no key file at \(path)")
            }
            throw KeystoreError(.unreadable, "cannot stat key file \(path): \(error.reason)")
        }
    }

    /// Writes the file atomically with mode 0600.
    ///
    /// The bytes go to a new temporary file in the same directory, created with mode 0600 (so
    /// never readable by others, and the umask can only narrow it), fsynced, then moved into
    /// place and the directory fsynced, so the new name survives a power cut.
    ///
    /// Unless `overwrite` is true, an existing file at `path` is never replaced (`.fileExists`):
    /// losing a key file loses the key. The no-replace move is a hard link then an unlink, so
    /// the directory's filesystem must support hard links (ext4, btrfs, xfs, tmpfs do).
    public func write(to path: String, overwrite: Bool = false) throws(KeystoreError) {
        let directory = Self.directory(of: path)
        let temporary = Self.temporaryPath(for: path, in: directory)
        do throws(SystemCallError) {
            let descriptor = try SystemCalls.createExclusive(temporary, mode: 0o600)
            defer { SystemCalls.closeDescriptor(descriptor) }
            try SystemCalls.writeAll(descriptor, Array(json()))
            try SystemCalls.fileSync(descriptor)
        } catch {
            SystemCalls.removeFile(temporary)
            throw KeystoreError(
                .writeFailed, "cannot write key file \(path): \(error.call): \(error.reason)")
        }
        do throws(SystemCallError) {
            if overwrite {
                try SystemCalls.renameReplacing(temporary, path)
            } else {
                try SystemCalls.hardLink(temporary, path)
                SystemCalls.removeFile(temporary)
            }
        } catch {
            SystemCalls.removeFile(temporary)
            if error.code == EEXIST {
                throw KeystoreError(.fileExists, "a file already exists at \(path)")
            }
            throw KeystoreError(
                .writeFailed, "cannot move key file into \(path): \(error.reason)")
        }
        do {
            let descriptor = try SystemCalls.openDirectory(directory)
            defer { SystemCalls.closeDescriptor(descriptor) }
            try SystemCalls.fileSync(descriptor)
        } catch {
            // Some filesystems cannot fsync a directory (EINVAL): nothing more can be done there.
            guard error.code == EINVAL else {
                throw KeystoreError(
                    .writeFailed,
                    "key file \(path) was written but its directory could not be synced: "
                        + error.reason)
            }
        }
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    /// `.<name>.tmp-<16 hex>` beside the target: same filesystem, so the move is atomic.
    private static func temporaryPath(for path: String, in directory: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? "keyfile"
        var generator = SystemRandomNumberGenerator()
        let tag = Hex.encode(
            (0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }, prefix: false)
        return "\(directory)/.\(name).tmp-\(tag)"
    }
}
