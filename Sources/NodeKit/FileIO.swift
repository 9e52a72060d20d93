import Foundation
import Tender

/// Files handed to other people (payments, receipts) are written atomically: a crash leaves
/// the old file or the whole new one, never half of one.
public enum FileIO {
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
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
