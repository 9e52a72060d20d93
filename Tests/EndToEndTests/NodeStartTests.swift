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
        let first = Process()
        first.executableURL = CLI.binary
        first.arguments = [
            "node", "--data-dir", cli.path("stall"), "--no-sync", "--listen",
            "unix:" + cli.path("first.sock"),
        ]
        first.environment = cli.environment
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer {
            first.terminate()
            first.waitUntilExit()
        }
        // The token is written after the lock is taken: once it is there, the first node
        // holds the folder (a wait for that, however slow the machine).
        let token = cli.path("stall/api-token")
        while first.isRunning, !FileManager.default.fileExists(atPath: token) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(FileManager.default.fileExists(atPath: token))
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
        let node = Process()
        node.executableURL = CLI.binary
        node.arguments = [
            "node", "--data-dir", cli.path("stall"), "--listen", "unix:" + cli.path("api.sock"),
        ]
        node.environment = cli.environment.merging(["TENDER_SYNC_INTERVAL": "3600"]) { $1 }
        node.standardOutput = FileHandle.nullDevice
        node.standardError = FileHandle.nullDevice
        try node.run()
        defer {
            node.terminate()
            node.waitUntilExit()
        }
        // Its locks are taken before the token is written (a wait for that, however slow).
        let token = cli.path("stall/api-token")
        while node.isRunning, !FileManager.default.fileExists(atPath: token) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(FileManager.default.fileExists(atPath: token))
        let sync = try cli.run(["sync", "--once", "--data-dir", cli.path("stall")])
        #expect(sync.status == 75, "\(sync.stderr)")
        #expect(
            sync.stderr.contains("`tender node` is running on \(cli.path("stall")) and syncs it"),
            "\(sync.stderr)")
        #expect(sync.stderr.contains("/api/sync"))
        #expect(node.isRunning)
    }
}
