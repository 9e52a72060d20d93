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
