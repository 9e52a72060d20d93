import CashuMint
import Foundation
import Testing

/// A "mint" that answers every request with one canned HTTP answer: what no real mint sends.
@Suite struct HostileMintTests {
    func answer(
        _ response: [UInt8], _ call: (MintClient) async throws(MintError) -> Void
    )
        async throws -> MintError.Kind?
    {
        let server = try CannedServer(response: response)
        let client = MintClient.makeHTTPClient()
        let kind: MintError.Kind?
        do {
            try await call(
                MintClient(
                    url: "http://127.0.0.1:\(server.port)", client: client, timeout: .seconds(600)))
            kind = nil
        } catch { kind = error.kind }
        try await client.shutdown()
        server.stop()
        return kind
    }

    static func http(_ status: String, _ body: [UInt8]) -> [UInt8] {
        Array(
            "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                .utf8) + body
    }

    @Test func anAnswerTooLargeIsRefusedUnread() async throws {
        let huge = Self.http("200 OK", [UInt8](repeating: UInt8(ascii: " "), count: 5 << 20))
        let kind = try await answer(huge) { mint throws(MintError) in _ = try await mint.info() }
        #expect(kind == .malformedAnswer("the answer is longer than 4194304 bytes"))
    }

    @Test func anAnswerThatIsNotJSONIsMalformed() async throws {
        let page = Self.http("200 OK", Array("<html>hello</html>".utf8))
        let kind = try await answer(page) { mint throws(MintError) in
            _ = try await mint.keysetStates()
        }
        guard case .malformedAnswer(let what)? = kind else {
            Issue.record("\(String(describing: kind))")
            return
        }
        #expect(what.hasPrefix("the answer is not JSON"))
    }

    @Test func aProxysErrorPageIsARefusalByStatus() async throws {
        let page = Self.http("502 Bad Gateway", Array("<html>bad gateway</html>".utf8))
        let kind = try await answer(page) { mint throws(MintError) in
            _ = try await mint.checkState([[0x02] + [UInt8](repeating: 1, count: 32)])
        }
        #expect(
            kind == .refused(code: nil, detail: "HTTP 502 without a NUT-00 error", httpStatus: 502))
    }
}

/// Accepts connections on 127.0.0.1 on a thread of its own and writes `response` to each.
private final class CannedServer: Sendable {
    let descriptor: Int32
    let port: Int

    init(response: [UInt8]) throws {
        let listener = try SilentListener()
        descriptor = listener.descriptor
        port = listener.port
        let descriptor = descriptor
        Thread.detachNewThread {
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 64 << 10)
                _ = recv(connection, &request, request.count, 0)
                var sent = 0
                // MSG_NOSIGNAL: a client that stops reading must not SIGPIPE the test runner.
                while sent < response.count {
                    let written = response[sent...].withUnsafeBytes {
                        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    if written <= 0 { break }
                    sent += written
                }
                _ = Glibc.close(connection)
            }
        }
    }

    /// Shutting the socket down wakes the blocked `accept`, which ends the thread.
    func stop() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        _ = Glibc.close(descriptor)
    }
}
