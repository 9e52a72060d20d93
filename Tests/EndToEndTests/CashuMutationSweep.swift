import ChainTestSupport
import Foundation
import GRDB

extension SweepRule {
    /// Cashu tokens. The memo and the mint URL are not signed (Docs/CASHU.md, "Every byte"), so
    /// a mutation may be taken as long as the wallet then holds exactly what the genuine token
    /// gives. Otherwise it is refused, with cashu.sqlite and wallet.sqlite left as they were:
    /// exit 65 (`rejected: Cashu token …`), or exit 66 when the URL now names a mint whose keys
    /// the wallet does not hold (README, exit statuses: 66 is a missing key).
    static let cashuToken = SweepRule(
        refusals: [
            Refusal(status: 65, meaning: "rejected") {
                // Without the advice after the reason (`; ask for it again, copied whole`).
                MutationSweep.reason(
                    $0.replacing("rejected: Cashu token: ", with: "rejected: token: ")
                        .replacing("rejected: Cashu token ", with: "rejected: ")
                        .replacing(/; [^\n]*/, with: ""))
            },
            Refusal(status: 66, meaning: "from a mint whose keys the wallet does not hold") {
                $0.contains("tender: error: the token is from mint ")
                    && $0.contains(", whose keys this wallet does not hold")
                    ? "the token is from mint …, whose keys this wallet does not hold" : nil
            },
        ],
        reasonHeading:
            "reason (after `rejected: Cashu token ` without the advice after it, or the "
            + "message of exit 66; ids and numbers blanked)",
        storeFiles: ["cashu.sqlite", "cashu.sqlite-wal", "wallet.sqlite", "wallet.sqlite-wal"],
        holdings: CashuHoldings.read)
}

/// What a Cashu wallet holds, read from its cashu.sqlite: every row of every table, without
/// the columns a token does not sign (`memo`, and `token`, the text as it came) or that say
/// when rather than what (`…_at`). Two receipts of the same proofs read the same.
enum CashuHoldings {
    static func isLeftOut(_ column: String) -> Bool {
        column == "memo" || column == "token" || column.hasSuffix("_at")
    }

    static func read(_ dataDirectory: URL) throws -> String {
        // The run's own copy: opening it read-write cannot touch the pristine store.
        let queue = try DatabaseQueue(
            path: dataDirectory.appendingPathComponent("cashu.sqlite").path)
        defer { try? queue.close() }
        return try queue.read { db in
            let tables = try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
            var lines: [String] = []
            for table in tables {
                for row in try Row.fetchAll(
                    db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)")
                {
                    let cells = zip(row.columnNames, row.databaseValues).filter {
                        !isLeftOut($0.0)
                    }.map { "\($0.0)=\(text($0.1))" }
                    lines.append("\(table): \(cells.joined(separator: " "))")
                }
            }
            return lines.sorted().joined(separator: "\n")
        }
    }

    private static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "null"
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .string(let string): "'\(string)'"
        case .blob(let data): "x'\(data.map { String(format: "%02x", $0) }.joined())'"
        }
    }
}

/// Names every byte of a `cashuB` token file: the prefix, each base64url character by the
/// field of the token's CBOR (NUT-00 V4) whose bits it changes, e.g. `t[0].p[1].c`, and the
/// newline after the token.
struct CashuTokenFields: FieldNaming {
    static let prefix = Array("cashuB".utf8)
    /// The token's CBOR.
    let cbor: [UInt8]
    /// The base64url characters: the file after the prefix, up to the newline.
    private let characters: [UInt8]
    /// The field each CBOR byte falls in: a head, a map key, or the content of an item.
    private var names: [String]
    /// Where each field's content lies in the CBOR.
    private var ranges: [String: Range<Int>] = [:]

    init(file: [UInt8]) throws {
        guard file.starts(with: Self.prefix) else { throw Failure("not a cashuB token file") }
        characters = Array(file.dropFirst(Self.prefix.count).prefix { $0 != UInt8(ascii: "\n") })
        guard let decoded = Self.decode(characters) else {
            throw Failure("the token is not base64url")
        }
        cbor = decoded
        names = Array(repeating: "(unmapped)", count: decoded.count)
        guard try walk(at: 0, path: "") == cbor.count else {
            throw Failure("bytes follow the token's CBOR")
        }
    }

    /// Every field named, a head or key included.
    var fieldNames: Set<String> { Set(names) }

    /// The content of `field` (a byte or text string), e.g. `d` (the memo).
    func bytes(of field: String) -> [UInt8]? { ranges[field].map { Array(cbor[$0]) } }

    func range(of field: String) -> Range<Int>? { ranges[field] }

    func field(of mutation: Mutation) -> String {
        let start = Self.prefix.count
        let end = start + characters.count
        switch mutation {
        case .flip(let offset, _) where offset < start, .truncate(let offset) where offset < start:
            return "the prefix cashuB"
        case .flip(let offset, _) where offset >= end, .truncate(let offset) where offset >= end:
            return "the newline after the token"
        case .flip(let offset, let bit):
            let index = offset - start
            let old = characters[index]
            let covered = Set((6 * index / 8)...((6 * index + 5) / 8))
            guard let before = Self.value(old), let after = Self.value(old ^ 1 << UInt8(bit)) else {
                return describe(covered) + " (no longer base64)"
            }
            // Bit k of a character's value (5 the highest) is bit 6·index + 5 − k of the CBOR.
            return describe(
                Set(
                    (0..<6).filter { (before ^ after) >> $0 & 1 == 1 }.map {
                        (6 * index + 5 - $0) / 8
                    }))
        case .truncate(let length):
            return describe([6 * (length - start) / 8])
        }
    }

    /// The fields of these CBOR bytes, in order; bits past the CBOR are the last character's
    /// padding.
    private func describe(_ bytes: Set<Int>) -> String {
        var seen: [String] = []
        for byte in bytes.sorted() {
            let name = byte < names.count ? names[byte] : "the padding bits of the last character"
            if !seen.contains(name) { seen.append(name) }
        }
        return seen.joined(separator: " / ")
    }

    /// Walks the item at `start`, naming its bytes; returns where it ends.
    private mutating func walk(at start: Int, path: String) throws -> Int {
        let (major, argument, headEnd) = try head(at: start)
        let name = path.isEmpty ? "token" : path
        switch major {
        case 2, 3:
            let end = headEnd + argument
            guard end <= cbor.count else { throw Failure("the CBOR ends inside \(name)") }
            mark(start..<headEnd, "\(name) (head)")
            mark(headEnd..<end, name)
            ranges[name] = headEnd..<end
            return end
        case 4:
            mark(start..<headEnd, "\(name) (array head)")
            var position = headEnd
            for index in 0..<argument {
                position = try walk(at: position, path: "\(name)[\(index)]")
            }
            return position
        case 5:
            mark(start..<headEnd, "\(name) (map head)")
            var position = headEnd
            for _ in 0..<argument {
                let (keyMajor, keyArgument, keyHeadEnd) = try head(at: position)
                let keyEnd = keyMajor == 3 ? keyHeadEnd + keyArgument : keyHeadEnd
                guard keyEnd <= cbor.count else { throw Failure("the CBOR ends inside a key") }
                let key =
                    keyMajor == 3
                    ? String(decoding: cbor[keyHeadEnd..<keyEnd], as: UTF8.self)
                    : String(keyArgument)
                let child = path.isEmpty ? key : "\(path).\(key)"
                mark(position..<keyEnd, "\(child) (key)")
                position = try walk(at: keyEnd, path: child)
            }
            return position
        case 6:
            mark(start..<headEnd, "\(name) (tag \(argument))")
            return try walk(at: headEnd, path: path)
        default:
            mark(start..<headEnd, name)
            return headEnd
        }
    }

    /// A CBOR head: major type, argument, and where the head ends.
    private func head(at start: Int) throws -> (major: UInt8, argument: Int, end: Int) {
        guard start < cbor.count else { throw Failure("the CBOR ends early") }
        let info = Int(cbor[start] & 0x1F)
        guard info < 28 else { throw Failure("indefinite or reserved CBOR at byte \(start)") }
        let extra = info < 24 ? 0 : 1 << (info - 24)
        guard start + 1 + extra <= cbor.count else { throw Failure("the CBOR ends in a head") }
        var argument = info < 24 ? info : 0
        for index in 0..<extra { argument = argument << 8 | Int(cbor[start + 1 + index]) }
        return (cbor[start] >> 5, argument, start + 1 + extra)
    }

    private mutating func mark(_ range: Range<Int>, _ name: String) {
        for index in range { names[index] = name }
    }

    /// A base64 character's value: base64url (RFC 4648 §5), and `+` and `/` of the standard
    /// alphabet, which Tender reads too (Codecs' Base64URL), so a flip to them is named by
    /// the bits it changes.
    static func value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"), UInt8(ascii: "+"): 62
        case UInt8(ascii: "_"), UInt8(ascii: "/"): 63
        default: nil
        }
    }

    /// Unpadded base64, the way a `cashuB` token carries its CBOR.
    static func decode(_ characters: [UInt8]) -> [UInt8]? {
        var bytes: [UInt8] = []
        var bits = 0
        var count = 0
        for character in characters {
            guard let value = value(character) else { return nil }
            bits = bits << 6 | Int(value)
            count += 6
            if count >= 8 {
                count -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> count))
            }
        }
        return bytes
    }

    static func encode(_ cbor: [UInt8]) -> [UInt8] {
        Array(
            Data(cbor).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
                .utf8)
    }
}

/// The rig's real mint (Rigs/cashu-mint: nutshell with its FakeWallet, unit sat) on a free
/// port, its data in `directory`, and the rig's scripts for nutshell's wallet beside it.
struct RigMint {
    static let rig = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rigs/cashu-mint")

    let url: String
    let directory: URL

    init(directory: URL) throws {
        self.directory = directory
        let port = try Shell.freePort()
        url = "http://127.0.0.1:\(port)"
        do {
            // Standard error is mixed in: the URL is the last line.
            let output = try Self.script(
                "start.sh", ["--port", String(port), "--data", directory.path, "--units", "sat"])
            guard output.split(separator: "\n").last.map(String.init) == url else {
                throw Failure("the mint did not say its URL: \(output)")
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Runs one of the rig's scripts (posix_spawn with an empty signal mask, so the mint it
    /// starts can be stopped with SIGTERM); its output.
    @discardableResult
    static func script(_ name: String, _ arguments: [String]) throws -> String {
        let (status, output) = try Shell.run(
            "/bin/bash", [rig.appendingPathComponent(name).path] + arguments)
        guard status == 0 else {
            throw Failure("\(name) \(arguments.joined(separator: " ")) exited \(status): \(output)")
        }
        return output
    }

    func stop() { _ = try? Self.script("stop.sh", [directory.path]) }
}

/// A payer and a payee, Tender wallets that both added the rig's mint. The payer takes 100
/// sat that nutshell's wallet minted, swapped at once, and gives two tokens from it: 36 sat
/// offline (its own proofs of 32 and 4, with their DLEQ proofs) and 24 sat locked to the
/// payee's key (split at the mint), each with a memo. The mint is then stopped: the payee
/// takes each token, and each mutation of it, offline.
struct CashuSweepWorld: Sendable {
    static let memo = "Two teas & a cake ☕"
    static let lockedMemo = "for the stall, locked"

    let cli: CLI
    /// The payee before any token arrives.
    let pristine: URL
    /// The key the locked token is locked to (`tender cashu key` of the payee).
    let payeeKey: String
    let targets: [SweepTarget]

    init() throws {
        let cli = try CLI()
        self.cli = cli
        let mint = try RigMint(directory: cli.workDirectory.appendingPathComponent("mint"))
        let nutshell = cli.path("nutshell")
        defer {
            mint.stop()
            for directory in [mint.directory.path, nutshell] {
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
        try RigMint.script("fund.sh", [mint.url, nutshell, "100"])
        let sent = try RigMint.script("wallet.sh", [mint.url, nutshell, "send", "100", "-d"])
        guard let funds = sent.firstMatch(of: /cashuB[A-Za-z0-9_-]+/) else {
            throw Failure("nutshell's wallet sent no token: \(sent)")
        }
        for wallet in ["payer", "payee"] {
            try cli.initWallet(wallet)
            try cli.ok(["cashu", "mint", "add", mint.url, "--data-dir", cli.path(wallet)])
        }
        let payer = cli.path("payer")
        try cli.ok(["cashu", "receive", String(funds.output), "--online", "--data-dir", payer])
        payeeKey = try cli.ok(["cashu", "key", "--data-dir", cli.path("payee")]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try cli.ok([
            "cashu", "send", "36", "--mint", mint.url, "--memo", Self.memo, "--data-dir", payer,
            "--out", cli.path("plain.cashu"),
        ])
        try cli.ok([
            "cashu", "send", "24", "--mint", mint.url, "--lock-to", payeeKey, "--memo",
            Self.lockedMemo, "--data-dir", payer, "--out", cli.path("locked.cashu"),
        ])
        // Offline from here: a token is taken with the mint's keys the payee holds.
        mint.stop()

        let pristine = cli.workDirectory.appendingPathComponent("pristine-payee")
        try FileManager.default.copyItem(
            at: cli.workDirectory.appendingPathComponent("payee"), to: pristine)
        self.pristine = pristine
        func target(_ kind: String, _ file: String, requireLock: Bool) throws -> SweepTarget {
            let bytes = try cli.bytes(file)
            return SweepTarget(
                kind: kind, file: bytes, fields: try CashuTokenFields(file: bytes),
                pristine: pristine, environment: cli.environment, rule: .cashuToken
            ) { input, dataDirectory, _ in
                ["cashu", "receive", input, "--data-dir", dataDirectory]
                    + (requireLock ? ["--require-lock"] : [])
            }
        }
        targets = [
            try target("cashu", "plain.cashu", requireLock: false),
            try target("cashu-locked", "locked.cashu", requireLock: true),
        ]
    }
}
