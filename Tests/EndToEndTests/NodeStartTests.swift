import Foundation
import Testing

/// `tender node` as a stall starts it, through the real binary: what it needs before it
/// writes anything, and that one data directory has one node.
@Suite struct NodeStartTests {
    @Test func aNodeWithoutAWalletWritesNothingAndSaysWhatIsMissing() throws {
        let cli = try CLI()
        let missing = try cli.run([
            "node", "--data-dir", cli.path("none"), "--no-sync", "--listen",
            "unix:" + cli.path("none.sock"),
        ])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("no wallet at"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("none")))
    }

    @Test func aSecondNodeOnTheSameDataDirectoryIsRefused() throws {
        let cli = try CLI()
        try cli.initWallet("stall")
        let first = try Self.startNode(
            cli, "stall", ["--no-sync", "--listen", "unix:" + cli.path("first.sock")])
        defer {
            first.terminate()
            first.waitUntilExit()
        }
        let second = try cli.run([
            "node", "--data-dir", cli.path("stall"), "--no-sync", "--listen",
            "unix:" + cli.path("second.sock"),
        ])
        #expect(second.status == 75, "\(second.stderr)")
        #expect(
            second.stderr.contains("another node is running on \(cli.path("stall"))"),
            "\(second.stderr)")
        #expect(first.isRunning)
        // This node does not sync: a sync by hand beside it runs (to an endpoint that does
        // not answer here: an I/O failure, not "busy").
        let sync = try cli.run([
            "sync", "--once", "--data-dir", cli.path("stall"), "--rpc", "http://127.0.0.1:9",
        ])
        #expect(sync.status != 75, "\(sync.stderr)")
    }

    /// A node that syncs and a sync by hand would send with one key side by side: whichever
    /// comes second is refused, saying who holds the folder.
    @Test func aSyncByHandIsRefusedBesideANodeThatSyncs() throws {
        let cli = try CLI()
        try cli.initWallet("stall")
        let node = try Self.startNode(
            cli, "stall", ["--listen", "unix:" + cli.path("api.sock")],
            environment: ["TENDER_SYNC_INTERVAL": "3600"])
        defer {
            node.terminate()
            node.waitUntilExit()
        }
        let sync = try cli.run(["sync", "--once", "--data-dir", cli.path("stall")])
        #expect(sync.status == 75, "\(sync.stderr)")
        #expect(
            sync.stderr.contains("`tender node` is running on \(cli.path("stall")) and syncs it"),
            "\(sync.stderr)")
        #expect(sync.stderr.contains("/api/sync"))
        #expect(node.isRunning)
    }

    /// `tender node` on `folder` with `arguments`, returned once it holds the folder: its
    /// locks are taken before the token is written, so once the token is there they are held
    /// (a wait for that, however slow the machine).
    static func startNode(
        _ cli: CLI, _ folder: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> Process {
        let node = Process()
        node.executableURL = CLI.binary
        node.arguments = ["node", "--data-dir", cli.path(folder)] + arguments
        node.environment = cli.environment.merging(environment) { $1 }
        node.standardOutput = FileHandle.nullDevice
        node.standardError = FileHandle.nullDevice
        try node.run()
        let token = cli.path(folder + "/api-token")
        while node.isRunning, !FileManager.default.fileExists(atPath: token) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(FileManager.default.fileExists(atPath: token))
        return node
    }
}
