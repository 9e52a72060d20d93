#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files that must survive a crash whole: a crash leaves the old file or the complete new one,
/// never half of one, and once `write` returns the new name survives a power cut too.
public enum DurableFile {
    /// How far a write that returned got.
    public enum Durability: Equatable, Sendable {
        /// In place and the folder fsynced: it survives a power cut.
        case synced
        /// In place, but the folder could not be fsynced: a power cut may lose the new name.
        case folderNotSynced(SystemError)
        /// Written in place to a device or pipe (no rename, nothing to sync).
        case device
    }

    /// Writes `bytes` to `path`: a new temporary file beside it, created exclusively with
    /// `mode` (so never wider, even for an instant), written and fsynced, then moved into
    /// place and the folder fsynced. With `replacing: false` an existing file is never
    /// replaced (the move is a hard link, which fails with EEXIST, then an unlink).
    ///
    /// A throw means nothing changed at `path`: the temporary file is removed. Except for a
    /// device or a pipe (a printer, `/dev/stdout`), which is written in place (a rename would
    /// swap the device node for a plain file), so part of `bytes` may have gone.
    @discardableResult
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, replacing: Bool = true
    ) throws(SystemError) -> Durability {
        if let kind = try? fileKind(path), kind != S_IFREG, kind != S_IFDIR {
            try FileDescriptor.withOpened(path, O_WRONLY) { device throws(SystemError) in
                try device.writeAll(bytes)
            }
            return .device
        }
        let folder = folder(of: path)
        let temporary = temporaryPath(for: path, in: folder)
        do throws(SystemError) {
            try FileDescriptor.withOpened(
                temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode
            ) { file throws(SystemError) in
                try file.writeAll(bytes)
                try file.sync()
            }
        } catch {
            _ = unlink(temporary)
            throw error
        }
        do throws(SystemError) {
            if replacing {
                _ = try retryingInterrupts("rename") { rename(temporary, path) }
            } else {
                _ = try retryingInterrupts("link") { link(temporary, path) }
                _ = unlink(temporary)
            }
        } catch {
            _ = unlink(temporary)
            throw error
        }
        do { try syncFolder(folder) } catch { return .folderNotSynced(error) }
        return .synced
    }

    /// fsync of a folder, so a rename or a new name in it survives a power cut. Filesystems
    /// that cannot (EINVAL) are left as they are: nothing more can be done there.
    public static func syncFolder(_ folder: String) throws(SystemError) {
        try FileDescriptor.withOpened(folder, O_RDONLY | O_DIRECTORY) {
            directory throws(SystemError) in
            do throws(SystemError) { try directory.sync() } catch {
                guard error.code == EINVAL else { throw error }
            }
        }
    }

    /// The file type bits (`S_IFREG`, `S_IFDIR`, `S_IFCHR`, …) of `path`, following links.
    public static func fileKind(_ path: String) throws(SystemError) -> mode_t {
        var info = stat()
        _ = try retryingInterrupts("stat") { stat(path, &info) }
        return info.st_mode & S_IFMT
    }

    /// The permission bits (`st_mode & 0o7777`) of `path`, following links.
    public static func permissions(_ path: String) throws(SystemError) -> mode_t {
        var info = stat()
        _ = try retryingInterrupts("stat") { stat(path, &info) }
        return info.st_mode & 0o7777
    }

    /// Reads a whole file; nil when it holds more than `limit` bytes.
    public static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8]? {
        try FileDescriptor.withOpened(path, O_RDONLY) { file throws(SystemError) in
            try file.readAll(limit: limit)
        }
    }

    /// The folder `path` is in: `.` for a bare name, `/` for a name at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// `.<name>.tmp-<16 hex>` beside the target: same filesystem, so the move is atomic.
    static func temporaryPath(for path: String, in folder: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        var generator = SystemRandomNumberGenerator()
        let tag = String(generator.next(), radix: 16)
        return "\(folder)/.\(name).tmp-\(String(repeating: "0", count: 16 - tag.count))\(tag)"
    }
}
