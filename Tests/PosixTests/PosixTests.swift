import Foundation
import Posix
import TenderTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DurableFileTests {
    func folder() throws -> String {
        try TemporaryDirectory("tender-posix").path
    }

    @Test func writesWholeFilesWithTheirModeAndLeavesNoTemporaryFile() throws {
        let dir = try folder()
        let path = dir + "/key.json"
        try DurableFile.write([1, 2, 3], to: path, mode: 0o600)
        #expect(try DurableFile.read(path, limit: 10) == [1, 2, 3])
        #expect(try DurableFile.permissions(path) == 0o600)
        try DurableFile.write([4], to: path, mode: 0o600)
        #expect(try DurableFile.read(path, limit: 10) == [4])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["key.json"])
    }

    @Test func refusesToReplaceWhenAskedNotTo() throws {
        let path = try folder() + "/key.json"
        try DurableFile.write([1], to: path, replacing: false)
        #expect(throws: SystemError("link", code: EEXIST)) {
            try DurableFile.write([2], to: path, replacing: false)
        }
        #expect(try DurableFile.read(path, limit: 10) == [1])
    }

    @Test func writesDevicesInPlace() throws {
        try DurableFile.write([1, 2, 3], to: "/dev/null")
        #expect(try DurableFile.fileKind("/dev/null") == S_IFCHR)
    }

    @Test func failuresNameTheCallAndTheReason() throws {
        let dir = try folder()
        #expect(throws: SystemError("read", code: EISDIR)) {
            _ = try DurableFile.read(dir, limit: 10)
        }
        #expect(throws: SystemError("open", code: ENOENT)) {
            _ = try DurableFile.read(dir + "/missing", limit: 10)
        }
        #expect(throws: SystemError("open", code: ENOENT)) {
            try DurableFile.write([1], to: dir + "/no/such/folder/file")
        }
        #expect(SystemError("open", code: EACCES).description == "open: Permission denied")
    }

    @Test func readingStopsPastTheLimit() throws {
        let path = try folder() + "/big"
        try DurableFile.write([UInt8](repeating: 7, count: 100), to: path)
        #expect(try DurableFile.read(path, limit: 99) == nil)
        #expect(try DurableFile.read(path, limit: 100)?.count == 100)
    }
}

@Suite struct SecureWipeTests {
    @Test func wipesInPlace() {
        var secret: [UInt8] = [1, 2, 3, 4]
        let storage = secret.withUnsafeBufferPointer { $0.baseAddress }
        secureWipe(&secret)
        #expect(secret == [0, 0, 0, 0])
        #expect(secret.withUnsafeBufferPointer { $0.baseAddress } == storage)
    }
}

@Suite struct DeadlineTests {
    @Test func deadlinesPassAndBoundWaits() throws {
        // A minute away has not passed, however slow the machine; a short one bounds the wait.
        #expect(!Deadline.after(.seconds(60)).hasPassed)
        let deadline = Deadline.after(.milliseconds(30))
        var pipeEnds: [Int32] = [-1, -1]
        #expect(pipe(&pipeEnds) == 0)
        let reader = FileDescriptor(owning: pipeEnds[0])
        let writer = FileDescriptor(owning: pipeEnds[1])
        // Nothing to read: the wait ends at the deadline.
        #expect(try reader.wait(for: Int16(POLLIN), until: deadline) == false)
        #expect(deadline.hasPassed)
        try writer.writeAll([1])
        #expect(try reader.wait(for: Int16(POLLIN), until: .after(.seconds(1))))
        reader.close()
        writer.close()
    }
}
