import Codecs
import Foundation
import Keystore
import NodeKit
import Tender

/// One file of a backup: its path inside the data directory, its permission bits, its bytes.
public struct BackupEntry: Sendable, Equatable {
    public let path: String
    public let mode: UInt32
    public let bytes: [UInt8]

    public init(path: String, mode: UInt32, bytes: [UInt8]) {
        self.path = path
        self.mode = mode
        self.bytes = bytes
    }

    /// A wallet database (the home wallet or another domain's), snapshotted with SQLite's
    /// backup API and checked again on restore.
    /// A Tender wallet's database (the home wallet, or one under `wallets/`); the Cashu
    /// wallet's is not one (`isCashu`).
    public var isWallet: Bool { path.hasSuffix(".sqlite") && !isCashu }

    /// The Cashu wallet's database (Docs/CASHU.md).
    public var isCashu: Bool { path == DataDirectory.Names.cashu }
}

/// What a backup file holds once opened (Docs/BACKUP.md): when it was taken and its files.
/// The payload is deterministic CBOR: `{"created": uint, "files": [{"path": text, "mode":
/// uint, "bytes": bytes}, …]}`.
public struct BackupArchive: Sendable, Equatable {
    /// Unix seconds.
    public let created: UInt64
    public let entries: [BackupEntry]

    public init(created: UInt64, entries: [BackupEntry]) {
        self.created = created
        self.entries = entries
    }

    /// The largest payload written or read: the whole archive is held in memory, several
    /// copies of it at once while it is sealed or opened (Docs/BACKUP.md, Limits).
    public static let maximumSize = 512 << 20

    public var wallets: [BackupEntry] { entries.filter(\.isWallet) }

    /// The wallet's address, read from the key file's public part (no passphrase needed).
    public var address: Address? { try? walletAddress() }

    /// The same, or why the key file does not give one.
    func walletAddress() throws -> Address {
        guard let key = entries.first(where: { $0.path == DataDirectory.Names.walletKey }) else {
            throw BackupError.malformed("it holds no \(DataDirectory.Names.walletKey)")
        }
        return try Address(try KeyFile(fileContents: key.bytes).address)
    }

    public func encoded() -> [UInt8] {
        CBOR.map([
            .init(.text("created"), .unsigned(created)),
            .init(
                .text("files"),
                .array(
                    entries.map { entry in
                        .map([
                            .init(.text("path"), .text(entry.path)),
                            .init(.text("mode"), .unsigned(UInt64(entry.mode))),
                            .init(.text("bytes"), .bytes(entry.bytes)),
                        ])
                    })),
        ]).encoded()
    }

    /// Decodes a payload (already authenticated, so a failure here means a writer bug or a
    /// newer format): exactly the fields above, nothing else.
    public static func decode(_ bytes: [UInt8]) throws(NodeError) -> BackupArchive {
        let options = CBORDecodingOptions(
            maxInputBytes: maximumSize, maxDepth: 4, maxCollectionCount: 100_000,
            maxStringBytes: maximumSize)
        let item: CBOR
        do { item = try CBOR.decode(bytes, options: options) } catch {
            throw BackupError.malformed("its contents are not CBOR (\(error))")
        }
        guard let top = item.mapEntries, top.count == 2,
            let created = item[.text("created")]?.unsignedValue,
            let files = item[.text("files")]?.arrayValue
        else { throw BackupError.malformed("its contents are not a file list") }
        var entries: [BackupEntry] = []
        for file in files {
            guard let fields = file.mapEntries, fields.count == 3,
                let path = file[.text("path")]?.textValue,
                let mode = file[.text("mode")]?.unsignedValue, mode <= 0o7777,
                let body = file[.text("bytes")]?.bytesValue
            else { throw BackupError.malformed("a file entry is not {path, mode, bytes}") }
            entries.append(BackupEntry(path: path, mode: UInt32(mode), bytes: body))
        }
        return BackupArchive(created: created, entries: entries)
    }
}

/// The files a backup takes from a data directory (by `DataDirectory.Names`), and the rules
/// every restored path must follow.
public enum BackupPaths {
    /// Copied as they are when present, after the wallet key.
    public static let optionalFiles = [
        DataDirectory.Names.issuerKey, DataDirectory.Names.sessionKey,
        DataDirectory.Names.apiToken, DataDirectory.Names.chains, DataDirectory.Names.settings,
    ]

    /// Why `path` may not be restored, or nil: a plain relative name inside the data
    /// directory, at most two levels deep (`wallets/NAME.sqlite`), no `.` or `..`, no empty
    /// part, no control character or backslash.
    public static func problem(_ path: String) -> String? {
        guard !path.isEmpty, path.utf8.count <= 255 else { return "is empty or too long" }
        guard !path.hasPrefix("/") else { return "is absolute" }
        guard
            !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\u{7F}" || $0 == "\\" }
            )
        else { return "holds a control character or a backslash" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return "is nested more than one folder deep" }
        for part in parts {
            guard !part.isEmpty else { return "has an empty part" }
            guard part != ".", part != ".." else { return "leaves its folder (. or ..)" }
        }
        // SQLite's side files belong to a running database; a backup holds whole ones only.
        for suffix in ["-wal", "-shm", "-journal"] where path.hasSuffix(suffix) {
            return "is a SQLite side file"
        }
        return nil
    }

    /// Checks a whole archive before anything is written: every path allowed, none twice,
    /// no file where another needs a folder, and the wallet key and home wallet present.
    static func check(_ archive: BackupArchive) throws(NodeError) {
        var seen = Set<String>()
        for entry in archive.entries {
            if let problem = problem(entry.path) {
                throw BackupError.malformed("it holds a path that \(problem): '\(entry.path)'")
            }
            guard seen.insert(entry.path).inserted else {
                throw BackupError.malformed("it holds '\(entry.path)' twice")
            }
        }
        for path in seen {
            if let slash = path.firstIndex(of: "/"), seen.contains(String(path[..<slash])) {
                throw BackupError.malformed("it holds '\(path)' and a file where its folder goes")
            }
        }
        for required in [DataDirectory.Names.walletKey, DataDirectory.Names.homeWallet]
        where !seen.contains(required) {
            throw BackupError.malformed("it holds no \(required)")
        }
    }
}

/// The failures a backup file itself can cause, as `NodeError`s (exit 65 or 77).
enum BackupError {
    static func malformed(_ what: String) -> NodeError {
        NodeError(.rejected(ProtocolError(.malformed("not a usable Tender backup: \(what)"))))
    }
}
