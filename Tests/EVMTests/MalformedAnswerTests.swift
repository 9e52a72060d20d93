import ChainTestSupport
import Codecs
import EVM
import Foundation
import Tender
import TenderTestSupport
import Testing

/// A node that answers wrongly (Referee/bad_node.py, one way per path), and nodes that do not
/// answer: each is a typed error naming what was wrong, never a crash.
@Suite(.serialized) final class MalformedAnswerTests {
    let server: Process
    let port: Int

    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3",
            URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Referee/bad_node.py").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        // Not our standard error: swift test reads it to its end, which would wait for the server.
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Up to the first newline: the pipe's other end stays open as long as the server runs.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        server = process
        port = try #require(
            Int(
                String(decoding: line, as: UTF8.self).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
    }

    /// SIGKILL: the test runner's threads block SIGTERM, and a child inherits that mask.
    deinit { kill(server.processIdentifier, SIGKILL) }

    func expectMalformed(
        _ path: String, mentioning text: String, _ call: (EthereumRPC) async throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await withRPC("http://127.0.0.1:\(port)\(path)") { rpc in
            do {
                try await call(rpc)
                Issue.record("\(path): no error", sourceLocation: sourceLocation)
            } catch EVMError.malformedResponse(let what) {
                #expect(what.contains(text), "\(path): \(what)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("\(path): \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func garbageIsMalformedAndSaysWhat() async throws {
        try await expectMalformed("/not-json", mentioning: "not JSON") {
            _ = try await $0.chainID()
        }
        try await expectMalformed("/wrong-id", mentioning: "answered id 987654") {
            _ = try await $0.chainID()
        }
        try await expectMalformed("/no-result", mentioning: "neither result nor error") {
            _ = try await $0.blockNumber()
        }
        try await expectMalformed("/wrong-version", mentioning: "jsonrpc") {
            _ = try await $0.chainID()
        }
        try await expectMalformed(
            "/leading-zero", mentioning: "eth_chainId: \"0x01\" is not a hex quantity"
        ) {
            _ = try await $0.chainID()
        }
        try await expectMalformed("/not-hex", mentioning: "not a hex quantity") {
            _ = try await $0.balance(of: devAccount)
        }
        try await expectMalformed("/number", mentioning: "expected a string") {
            _ = try await $0.chainID()
        }
        try await expectMalformed("/short-hash", mentioning: "blockHash: expected 32 bytes, got 31")
        {
            _ = try await $0.transactionReceipt(
                try Bytes32(hex: "0x" + String(repeating: "11", count: 32)))
        }
        try await expectMalformed("/batch-missing", mentioning: "1 calls left unanswered") {
            _ = try await $0.batch([RPCCall("eth_chainId"), RPCCall("eth_blockNumber")])
        }
    }

    /// A node whose receipt names a block that is not the canonical one at that height (a
    /// node behind a reorg): reported as a reorg, not as confirmed.
    @Test func aReceiptOffTheCanonicalChainIsAReorg() async throws {
        let hash = try Bytes32(hex: "0x" + String(repeating: "11", count: 32))
        try await withRPC("http://127.0.0.1:\(port)/stale-receipt") { rpc in
            let outcome = try await rpc.waitForReceipt(hash, timeout: .generousWait)
            guard case .reorganized(let receipt) = outcome else {
                Issue.record("expected a reorg, got \(outcome)")
                return
            }
            #expect(receipt.blockNumber == 5)
            #expect(receipt.blockHash.bytes == [UInt8](repeating: 0x22, count: 32))
        }
    }

    @Test func anOversizedAnswerIsRefused() async throws {
        let client = EthereumRPC.makeHTTPClient()
        var rpc = EthereumRPC(endpoint: "http://127.0.0.1:\(port)/huge", client: client)
        rpc.maximumResponseBytes = 100_000
        await #expect(throws: EVMError.malformedResponse("eth_getCode: more than 100000 bytes")) {
            try await rpc.code(at: devAccount)
        }
        try await client.shutdown()
    }

    @Test func anHTTPErrorIsItsStatus() async throws {
        try await withRPC("http://127.0.0.1:\(port)/status-502") { rpc in
            await #expect(throws: EVMError.httpStatus(502, endpoint: rpc.endpoint)) {
                try await rpc.chainID()
            }
        }
    }

    /// The node answers after 120 s: a success would mean the 300 ms timeout did not fire.
    @Test func aSlowNodeTimesOut() async throws {
        try await withRPC("http://127.0.0.1:\(port)/slow", timeout: .milliseconds(300)) { rpc in
            await #expect(throws: EVMError.timedOut(endpoint: rpc.endpoint, method: "eth_chainId"))
            {
                try await rpc.chainID()
            }
        }
    }

    /// The read timeout alone (the deadline is a minute away) fails a silent node: it is kept
    /// by the event loop, so busy Swift tasks cannot delay it past the node's answer.
    @Test func aSilentNodeTimesOutOnTheReadTimeout() async throws {
        let client = EthereumRPC.makeHTTPClient(readTimeout: .milliseconds(300))
        let rpc = EthereumRPC(
            endpoint: "http://127.0.0.1:\(port)/slow", client: client, timeout: .seconds(60))
        await #expect(throws: EVMError.timedOut(endpoint: rpc.endpoint, method: "eth_chainId")) {
            try await rpc.chainID()
        }
        try await client.shutdown()
    }

    @Test func aClosedPortIsUnreachableAtOnce() async throws {
        let url = "http://127.0.0.1:\(try Shell.freePort())"
        // Unreachable, not timed out: the refused connection is reported, not retried until
        // the request's 10 s deadline (tests assert no timings; the kind of error tells).
        try await withRPC(url, timeout: .seconds(10)) { rpc in
            do {
                _ = try await rpc.chainID()
                Issue.record("a closed port answered")
            } catch EVMError.unreachable(let endpoint, _) {
                #expect(endpoint == url)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// A provider's key in the endpoint (path, query or user part) never shows in what the
    /// error says: it goes to the log and to `/api/status`.
    @Test func anUnreachableEndpointIsNamedWithoutItsKey() async throws {
        let port = try Shell.freePort()
        for url in [
            "http://127.0.0.1:\(port)/v3/SECRETKEY", "http://user:SECRETKEY@127.0.0.1:\(port)",
            "http://127.0.0.1:\(port)/?apikey=SECRETKEY",
        ] {
            try await withRPC(url, timeout: .seconds(10)) { rpc in
                do {
                    _ = try await rpc.chainID()
                    Issue.record("a closed port answered")
                } catch {
                    #expect(!String(describing: error).contains("SECRETKEY"), "\(error)")
                    #expect(String(describing: error).contains("127.0.0.1:\(port)"), "\(error)")
                }
            }
        }
    }
}
