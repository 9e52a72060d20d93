import Foundation
import TenderTestSupport

/// Runs the real `tender` executable built beside the test bundle (or `$TENDER_BINARY`).
struct CLI {
    struct Result {
        let status: Int32
        let stdoutBytes: [UInt8]
        var stdout: String { String(decoding: stdoutBytes, as: UTF8.self) }
        let stderr: String
        /// Killed by a signal rather than exiting.
        let signalled: Bool

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
        }
    }

    let workDirectory: URL
    var environment: [String: String]

    /// A fresh scratch directory with a passphrase file.
    init() throws {
        workDirectory = try TemporaryDirectory("tender-e2e").url
        let passphrase = workDirectory.appendingPathComponent("passphrase")
        try "test passphrase\n".write(to: passphrase, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["TENDER_PASSPHRASE_FILE"] = passphrase.path
        environment.removeValue(forKey: "TENDER_HOME")
        environment.removeValue(forKey: "TENDER_NOW")
        environment.removeValue(forKey: "TENDER_CRASH_AT")
        self.environment = environment
    }

    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["TENDER_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        // swift test runs the test bundle from the build's products directory.
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("tender")
    }

    func path(_ name: String) -> String { workDirectory.appendingPathComponent(name).path }

    /// Runs `tender ARGS`; `killAfter` sends SIGKILL after that many seconds if still running.
    @discardableResult
    func run(
        _ arguments: [String], extraEnvironment: [String: String] = [:], killAfter: Double? = nil,
        stdin: String? = nil
    ) throws -> Result {
        try Self.launch(
            Self.binary, arguments, environment: environment.merging(extraEnvironment) { $1 },
            directory: workDirectory, killAfter: killAfter, stdin: stdin.map(path))
    }

    /// Runs a program (no shell), collecting its output; SIGKILL after `killAfter` seconds.
    static func launch(
        _ executable: URL, _ arguments: [String], environment: [String: String]?,
        directory: URL, killAfter: Double? = nil, stdin: String? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdin))
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        if let killAfter {
            Thread.sleep(forTimeInterval: killAfter)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdoutBytes: Array(stdout),
            stderr: String(decoding: stderr, as: UTF8.self),
            signalled: process.terminationReason == .uncaughtSignal)
    }

    /// Runs and requires exit status 0, returning the result.
    @discardableResult
    func ok(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> Result {
        let result = try run(arguments, extraEnvironment: extraEnvironment)
        guard result.status == 0 else {
            throw Failure(
                "tender \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)"
            )
        }
        return result
    }

    /// Creates a wallet in `name` (cheap scrypt for tests) and returns its address.
    @discardableResult
    func initWallet(_ name: String, mnemonic: String? = nil) throws -> String {
        var extra: [String: String] = [:]
        var arguments = ["init", "--data-dir", path(name), "--scrypt-n", "1024", "--json"]
        if let mnemonic {
            let file = path("\(name).words")
            try mnemonic.write(toFile: file, atomically: true, encoding: .utf8)
            extra["TENDER_MNEMONIC_FILE"] = file
            arguments.append("--restore")
        }
        return try ok(arguments, extraEnvironment: extra).json["address"] as! String
    }

    /// A scratch world for payments: an issuer, and Alice and Bob who trust it; Alice holds
    /// `notes` notes of `amount`. Returns the issuer's, Alice's and Bob's addresses.
    static func alicePaysBob(
        notes: Int, amount: Int
    ) throws -> (
        cli: CLI, issuer: String, alice: String, bob: String
    ) {
        let cli = try CLI()
        let alice = try cli.initWallet("alice")
        let bob = try cli.initWallet("bob")
        let issuer =
            try cli.ok([
                "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024", "--json",
            ]).json["issuer"] as! String
        for wallet in ["alice", "bob"] {
            try cli.ok(["trust", "add", issuer, "--data-dir", cli.path(wallet)])
        }
        try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", alice, "--amount",
            String(amount), "--count", String(notes), "--out", cli.path("notes"),
        ])
        try cli.ok(["receive", cli.path("notes"), "--data-dir", cli.path("alice")])
        return (cli, issuer, alice, bob)
    }

    /// Reads a wallet's balance of the native asset: (spendable, pending, inDoubt).
    func balance(_ name: String) throws -> (spendable: UInt64, pending: UInt64, inDoubt: UInt64) {
        let assets =
            try ok(["balance", "--data-dir", path(name), "--json"]).json["assets"]
            as? [[String: Any]] ?? []
        guard let native = assets.first else { return (0, 0, 0) }
        return (
            UInt64(native["spendable"] as! String)!, UInt64(native["pending"] as! String)!,
            UInt64(native["inDoubt"] as! String)!
        )
    }

    func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: workDirectory.appendingPathComponent(name)))
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: workDirectory.appendingPathComponent(name))
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
