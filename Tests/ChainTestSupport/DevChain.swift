import Codecs
import EVM
import Foundation
import Testing

/// A dev chain (Rigs/dev-chain) started for a suite on a free port and stopped after it,
/// with the RPC client the suite's tests share. Apply `.devChain` to a `.serialized` suite:
/// its tests mine, snapshot and switch automine on one chain.
public struct DevChain: Sendable {
    public static let chainID: UInt64 = 31_999
    public let port: Int
    public let rpc: EthereumRPC

    public var url: String { "http://127.0.0.1:\(port)" }

    @TaskLocal public static var current: DevChain?

    public static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The rig's venv python (made once by Rigs/dev-chain/venv.sh).
    public static var python: String {
        root.appendingPathComponent("Rigs/dev-chain/.venv/bin/python").path
    }

    /// Compiles a Vyper contract with the rig's compiler: its init code.
    public static func compile(_ source: URL) throws -> [UInt8] {
        let vyper = root.appendingPathComponent("Rigs/dev-chain/.venv/bin/vyper").path
        let (status, output) = try Shell.run(vyper, ["-f", "bytecode", source.path])
        guard status == 0 else {
            throw Shell.Failure(what: "vyper \(source.lastPathComponent)", output: output)
        }
        return try Hex.decode(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A controls call (evm_mine, evm_snapshot, …).
    /// Runs `body` with automine off (transactions wait for `evm_mine`), then turns it back on
    /// whatever happens (which mines what is left in the pool).
    public func withAutomineOff(_ body: () async throws -> Void) async throws {
        try await control("evm_setAutomine", [.bool(false)])
        do { try await body() } catch {
            _ = try? await control("evm_setAutomine", [.bool(true)])
            throw error
        }
        try await control("evm_setAutomine", [.bool(true)])
    }

    @discardableResult
    public func control(_ method: String, _ params: [JSONValue] = []) async throws -> JSONValue {
        try await rpc.request(method, params)
    }
}

/// Starts the chain before the suite and stops it after (`Rigs/dev-chain/start.sh`, `stop.sh`).
public struct DevChainScope: SuiteTrait, TestScoping {
    public let isRecursive = false

    public init() {}

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let port = try Shell.freePort()
        let start = DevChain.root.appendingPathComponent("Rigs/dev-chain/start.sh").path
        let stop = DevChain.root.appendingPathComponent("Rigs/dev-chain/stop.sh").path
        let (status, output) = try Shell.run(
            "/bin/bash", [start, "--port", String(port), "--chain-id", String(DevChain.chainID)])
        guard status == 0 else { throw Shell.Failure(what: "dev chain start", output: output) }
        let client = EthereumRPC.makeHTTPClient(
            connectTimeout: .seconds(30), readTimeout: .seconds(60))
        let chain = DevChain(
            port: port,
            rpc: EthereumRPC(
                endpoint: "http://127.0.0.1:\(port)", client: client, timeout: .seconds(120)))
        var failure: (any Error)?
        do { try await DevChain.$current.withValue(chain) { try await function() } } catch {
            failure = error
        }
        try? await client.shutdown()
        _ = try? Shell.run("/bin/bash", [stop, "--port", String(port)])
        if let failure { throw failure }
    }
}

extension Trait where Self == DevChainScope {
    public static var devChain: DevChainScope { DevChainScope() }
}

/// Runs a fresh client for one test against `url`, shut down after.
@discardableResult
public func withRPC<T>(
    _ url: String, timeout: Duration = .seconds(30), _ body: (EthereumRPC) async throws -> T
) async throws -> T {
    let client = EthereumRPC.makeHTTPClient(connectTimeout: .seconds(10), readTimeout: timeout)
    let rpc = EthereumRPC(endpoint: url, client: client, timeout: timeout)
    do {
        let result = try await body(rpc)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

public enum Shell {
    public struct Failure: Error, CustomStringConvertible {
        public let what: String
        public let output: String
        public var description: String { "\(what) failed: \(output)" }
    }

    /// Runs a program to its end: its status and its output and errors together.
    ///
    /// posix_spawn, not Foundation's Process: start.sh leaves the server running, and
    /// Process.waitUntilExit on Linux then waits for it too. The child gets an empty signal
    /// mask (the test runner's threads block SIGTERM, which stop.sh sends to the server).
    public static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "evm-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw Failure(what: executable, output: "posix_spawn: \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS by hand (macros are not imported).
        return (status & 0x7f == 0 ? (status >> 8) & 0xff : -1, output)
    }

    /// A TCP port nothing listens on now (bound to 0 by the kernel, then released).
    public static func freePort() throws -> Int {
        let (status, output) = try run(
            "/usr/bin/env",
            [
                "python3", "-c",
                "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])",
            ])
        guard status == 0, let port = Int(output.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw Failure(what: "free port", output: output)
        }
        return port
    }
}
