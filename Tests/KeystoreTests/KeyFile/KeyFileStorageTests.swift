import Foundation
import Keystore
import Testing

/// Files on disk: mode, atomic replacement, and the error kinds of reading.
@Suite struct KeyFileStorageTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as! NSNumber).intValue
    }

    @Test func writesMode0600AndReadsBack() throws {
        let file = try KeyFileTests.sealed()
        try withTemporaryDirectory { directory in
            let path = directory + "/node.key"
            try file.write(to: path)
            #expect(try Self.mode(path) == 0o600)
            #expect(try KeyFile.permissionsAreTooOpen(at: path) == false)
            #expect(try KeyFile.load(from: path) == file)
            #expect(FileManager.default.contents(atPath: path) == file.json())
            // The temporary file is gone.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["node.key"])
        }
    }

    @Test func reportsLoosePermissions() throws {
        let file = try KeyFileTests.sealed()
        try withTemporaryDirectory { directory in
            let path = directory + "/node.key"
            try file.write(to: path)
            for (mode, tooOpen) in [(0o640, true), (0o604, true), (0o610, true), (0o400, false)] {
                try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
                #expect(try KeyFile.permissionsAreTooOpen(at: path) == tooOpen, "\(mode)")
            }
            // Loading does not refuse: the caller decides.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            #expect(try KeyFile.load(from: path) == file)
        }
    }

    @Test func neverOverwritesUnlessAsked() throws {
        let first = try KeyFileTests.sealed(KeyFileTests.key(1))
        let second = try KeyFileTests.sealed(KeyFileTests.key(2))
        try withTemporaryDirectory { directory in
            let path = directory + "/node.key"
            try first.write(to: path)
            let error = keystoreError { try second.write(to: path) }
            #expect(error?.kind == .fileExists)
            #expect(try KeyFile.load(from: path) == first)
            try second.write(to: path, overwrite: true)
            #expect(try KeyFile.load(from: path) == second)
            #expect(try Self.mode(path) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["node.key"])
        }
    }

    @Test func reportsAMissingFile() throws {
        try withTemporaryDirectory { directory in
            for path in [directory + "/absent.key", directory + "/no/such/dir/node.key"] {
                #expect(keystoreError { _ = try KeyFile.load(from: path) }?.kind == .fileMissing)
                #expect(
                    keystoreError { _ = try KeyFile.permissionsAreTooOpen(at: path) }?.kind
                        == .fileMissing)
            }
        }
    }

    @Test func reportsAnUnreadablePath() throws {
        try withTemporaryDirectory { directory in
            // A directory opens but cannot be read (EISDIR); running as root, modes would not do.
            let error = keystoreError { _ = try KeyFile.load(from: directory) }
            #expect(error?.kind == .unreadable)
            #expect(error?.message.contains(directory) == true)
        }
    }

    @Test func refusesHugeFiles() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/huge.key"
            _ = FileManager.default.createFile(
                atPath: path, contents: Data(repeating: 0x20, count: 65 * 1024))
            let error = keystoreError { _ = try KeyFile.load(from: path) }
            #expect(error?.kind == .malformed)
        }
    }

    @Test func reportsAMalformedFileOnDisk() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/bad.key"
            _ = FileManager.default.createFile(
                atPath: path, contents: Data("{\"version\": 1}".utf8))
            let error = keystoreError { _ = try KeyFile.load(from: path) }
            #expect(error?.kind == .malformed)
            #expect(error?.field == "kdf")
        }
    }

    @Test func reportsAWriteIntoAMissingDirectory() throws {
        let file = try KeyFileTests.sealed()
        try withTemporaryDirectory { directory in
            let error = keystoreError { try file.write(to: directory + "/missing/node.key") }
            #expect(error?.kind == .writeFailed)
        }
    }
}
