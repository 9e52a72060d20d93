import Foundation
import Posix
import Tender

/// Files handed to other people (payments, receipts) are written atomically: a crash leaves
/// the old file or the whole new one, never half of one.
public enum FileIO {
    /// Written durably (`DurableFile.write`: a crash leaves the old file or the whole new one,
    /// and the new name survives a power cut). A device or pipe (a printer, `/dev/stdout`) is
    /// written in place.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        do { try DurableFile.write(bytes, to: path) } catch {
            throw NodeError(.file("cannot write \(path): \(explain(error))"))
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
        let bytes: [UInt8]?
        do { bytes = try DurableFile.read(path, limit: limit) } catch {
            throw NodeError(.file("cannot read \(path): \(explain(error))"))
        }
        guard let bytes else {
            throw NodeError(
                .rejected(ProtocolError(.proofTooLarge("\(path) is larger than \(limit) bytes"))))
        }
        return bytes
    }

    /// What a failed call means to someone who named the file.
    static func explain(_ error: SystemError) -> String {
        switch error.code {
        case SystemError.notFound: "no such file"
        case SystemError.isDirectory: "it is a folder, not a file"
        case SystemError.permissionDenied: "permission denied"
        case SystemError.notDirectory: "a part of the path is not a folder"
        default: error.description
        }
    }
}
