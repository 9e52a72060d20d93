import Foundation
import Tender

/// Files handed to other people (payments, receipts) are written atomically: a crash leaves
/// the old file or the whole new one, never half of one.
public enum FileIO {
    /// A device or pipe (a printer, `/dev/stdout`) is written in place: replacing it by a
    /// rename would swap the device node for a plain file.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw NodeError(.file("cannot write to \(path)"))
            }
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(bytes))
            return
        }
        do { try Data(bytes).write(to: url, options: .atomic) } catch {
            throw NodeError(.file("cannot write \(path): \(error.localizedDescription)"))
        }
    }

    /// Refuses, before anything is committed, a path `writeAtomically` could not write: an
    /// existing file or device must be writable, a new file's folder must be. (A payment
    /// recorded as handed over whose file then fails to appear cannot be cancelled.)
    public static func checkWritable(_ paths: String?...) throws {
        for case let path? in paths { try checkWritablePath(path) }
    }

    private static func checkWritablePath(_ path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if access(path, F_OK) == 0 {
            guard access(path, W_OK) == 0 else {
                throw NodeError(.file("cannot write \(path): permission denied"))
            }
            var status = stat()
            // Replacing a regular file takes a rename in its folder.
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                access(folder, W_OK | X_OK) != 0
            {
                throw NodeError(.file("cannot write \(path): its folder \(folder) is not writable"))
            }
        } else {
            var status = stat()
            guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw NodeError(.file("cannot write \(path): no folder \(folder)"))
            }
            guard access(folder, W_OK | X_OK) == 0 else {
                throw NodeError(.file("cannot write \(path): the folder \(folder) is not writable"))
            }
        }
    }

    public static func read(_ path: String, limit: Int) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw NodeError(.file("cannot open \(path)"))
        }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: limit + 1) ?? Data()
        guard data.count <= limit else {
            throw NodeError(
                .rejected(ProtocolError(.proofTooLarge("\(path) is larger than \(limit) bytes"))))
        }
        return Array(data)
    }
}
