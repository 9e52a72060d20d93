import Foundation
import NodeKit
import Posix
import Tender

/// Files handed to other people (payments, receipts, codes): read with a size cap, written
/// durably, and checked before anything is committed that depends on them being written.
public enum FileIO {
    /// Written durably (`DurableFile.write`: a crash leaves the old file or the whole new one,
    /// and the new name survives a power cut), created with `mode`. A device or pipe (a
    /// printer, `/dev/stdout`) is written in place. Unless `replacing`, an existing regular
    /// file is refused: a payment or a receipt written over another would lose it. With
    /// `exclusive`, so is one that appears between that check and the write: the new file is
    /// hard-linked to its name, never renamed over another (the folder's filesystem must
    /// support hard links, as ext4, btrfs, xfs and tmpfs do).
    public static func writeAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, replacing: Bool = false,
        exclusive: Bool = false
    ) throws(NodeError) {
        if !replacing { try checkNotExisting(path) }
        let linked = exclusive && !replacing
        do { try DurableFile.write(bytes, to: path, mode: mode, replacing: !linked) } catch {
            if linked, error.code == SystemError.exists { throw alreadyExists(path) }
            throw NodeError(.io("cannot write \(path): \(explain(error))"))
        }
    }

    /// The file transport: checked with `checkWritable`, written with `writeAtomically`; a
    /// failed write left nothing at the path unless it is a device or a pipe.
    public static func transport(to path: String) -> FileTransport {
        FileTransport(
            path: path, check: { path throws(NodeError) in try checkWritable(path) },
            write: { bytes, path throws(TransportFailure) in
                let device = isDevice(path)
                do throws(NodeError) { try writeAtomically(bytes, to: path) } catch {
                    throw device ? .mayHaveSent(error) : .nothingSent(error)
                }
            })
    }

    /// Whether `path` is there and is not a regular file (a device or a pipe): a failed write
    /// to it may have passed some bytes on.
    public static func isDevice(_ path: String) -> Bool {
        (try? DurableFile.fileKind(path)).map { $0 != S_IFREG } ?? false
    }

    /// Refuses, before anything is committed, a path `writeAtomically` could not write: an
    /// existing file (unless `replacing`) or one that is not writable, a missing or read-only
    /// folder. (A payment recorded as handed over whose file then fails to appear is given
    /// back, but a failure found first costs nothing.)
    public static func checkWritable(_ paths: String?..., replacing: Bool = false) throws(NodeError)
    {
        for case let path? in paths {
            if !replacing { try checkNotExisting(path) }
            try checkWritablePath(path)
        }
    }

    private static func checkNotExisting(_ path: String) throws(NodeError) {
        guard let kind = try? DurableFile.fileKind(path) else { return }
        if kind == S_IFDIR {
            throw NodeError(.usage("\(path) is a folder: give a file name"))
        }
        if kind == S_IFREG { throw alreadyExists(path) }
    }

    private static func alreadyExists(_ path: String) -> NodeError {
        NodeError(.exists("\(path) already exists: choose another name or remove it first"))
    }

    private static func checkWritablePath(_ path: String) throws(NodeError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if let kind = try? DurableFile.fileKind(path) {
            guard kind != S_IFDIR else {
                throw NodeError(.usage("\(path) is a folder: give a file name"))
            }
            guard access(path, W_OK) == 0 else {
                throw NodeError(.io("cannot write \(path): permission denied"))
            }
            // Replacing a regular file takes a rename in its folder.
            if kind == S_IFREG, access(folder, W_OK | X_OK) != 0 {
                throw NodeError(.io("cannot write \(path): its folder \(folder) is not writable"))
            }
        } else {
            guard (try? DurableFile.fileKind(folder)) == S_IFDIR else {
                throw NodeError(.missing("cannot write \(path): there is no folder \(folder)"))
            }
            guard access(folder, W_OK | X_OK) == 0 else {
                throw NodeError(.io("cannot write \(path): the folder \(folder) is not writable"))
            }
        }
    }

    /// Reads a whole file of at most `limit` bytes.
    /// What a file over its limit is: a peer's message (a protocol refusal), or a setting
    /// the person gave (a usage error: probably the wrong file).
    public enum Contents: Sendable { case message, setting }

    public static func read(
        _ path: String, limit: Int, holding contents: Contents = .message
    ) throws(NodeError) -> [UInt8] {
        let bytes: [UInt8]?
        do { bytes = try DurableFile.read(path, limit: limit) } catch {
            if error.code == SystemError.notFound {
                throw NodeError(.missing("no file \(path)"))
            }
            throw NodeError(.io("cannot read \(path): \(explain(error))"))
        }
        guard let bytes else {
            switch contents {
            case .message:
                throw NodeError(
                    .rejected(
                        ProtocolError(.proofTooLarge("\(path) is larger than \(limit) bytes"))))
            case .setting:
                throw NodeError(
                    .usage("\(path) is larger than \(limit) bytes: is it the right file?"))
            }
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
