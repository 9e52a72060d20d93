import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import NodeAPI
import NodeKit
import NodeTestSupport
import TenderTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a client that sends nothing, sends slowly, or sends from a name the node does not
/// answer to can hold of the API: each reproduces a way a local process or a web page held or
/// read the node before (idle connections by the thousand, slowloris, a trickled body, DNS
/// rebinding), through a real server on a real socket.
@Suite struct ConnectionLimitTests {
    let node = Node()
    static let token = String(repeating: "7", count: 64)

    func application(
        _ limits: ConnectionLimits, hosts: HostAllowList = HostAllowList()
    )
        -> some ApplicationProtocol
    {
        let alice = try! node.fundedAlice([10])
        let context = NodeAPIContext(
            wallets: { NodeWallets(home: alice) }, clock: node.clock,
            state: NodeState(startedAt: node.clock.now()), feed: PaymentFeed(),
            token: Self.token, hosts: hosts, limits: limits, syncNow: {})
        return Application(
            router: APIRouter.make(context), server: limits.server(counting: ConnectionCount()),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
    }

    /// A connection that sends no request head, or half of one, or a head and then not its
    /// body, is closed by the server (the test waits for the close; it asserts no timing).
    @Test func silentSlowAndTrickledRequestsAreClosed() async throws {
        var limits = ConnectionLimits()
        limits.headTimeout = .milliseconds(300)
        limits.bodyTimeout = .milliseconds(300)
        try await application(limits).test(.live) { client in
            let port = try #require(client.port)
            for opening in [
                "", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
                "POST /api/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.token)\r\n"
                    + "Content-Length: 1000000\r\n\r\n{",
            ] {
                let connection = try RawConnection(port: port)
                try connection.send(opening)
                #expect(try await connection.readUntilClosed().isEmpty, "opening: \(opening)")
            }
            // A request sent whole is answered as before.
            let connection = try RawConnection(port: port)
            try connection.send(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(try await connection.readUntilClosed().hasPrefix("HTTP/1.1 200"))
        }
    }

    /// Past the cap, a connection is closed before anything is read, while those within it are
    /// served: idle connections cannot run the node out of descriptors. (Which of three
    /// connections is the one over the cap is the server's order, not the test's.)
    @Test func connectionsOverTheCapAreRefusedAndTheOthersServed() async throws {
        var limits = ConnectionLimits()
        limits.maxConnections = 2
        limits.headTimeout = .seconds(600)
        try await application(limits).test(.live) { client in
            let port = try #require(client.port)
            let connections = try (0..<3).map { _ in try RawConnection(port: port) }
            var answers: [String] = []
            for connection in connections {
                // The refused one may be closed already: its send can fail.
                try? connection.send(
                    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                answers.append(try await connection.readUntilClosed())
            }
            #expect(answers.filter { $0.hasPrefix("HTTP/1.1 200") }.count == 2, "\(answers)")
            #expect(answers.filter(\.isEmpty).count == 1, "\(answers)")
        }
    }

    /// Event streams past their cap are refused with 503 while the open one goes on.
    @Test func eventStreamsOverTheCapAreRefused() async throws {
        var limits = ConnectionLimits()
        limits.maxEventStreams = 1
        try await application(limits).test(.live) { client in
            let port = try #require(client.port)
            let request =
                "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Self.token)\r\n\r\n"
            let open = try RawConnection(port: port)
            try open.send(request)
            #expect(try await open.read(until: "tender payments").hasPrefix("HTTP/1.1 200"))
            let refused = try RawConnection(port: port)
            try refused.send(
                request.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"))
            let answer = try await refused.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer.prefix(200))")
            #expect(answer.contains("event streams are open already"))
        }
    }

    /// A name that is not the node's (a page rebinding evil.example to the node's address) is
    /// refused before the token is looked at; IP addresses, localhost and listed names pass,
    /// and every answer says it is not to be loaded by another origin.
    @Test func onlyTheNodesOwnNamesAreAnswered() async throws {
        let hosts = HostAllowList.forMachine("stall", adding: ["till.example"])
        try await application(ConnectionLimits(), hosts: hosts).test(.live) { client in
            let port = try #require(client.port)
            for (host, admitted) in [
                ("evil.example", false), ("evil.example:8737", false), ("127.0.0.1:8737", true),
                ("[::1]:8737", true), ("localhost:8737", true), ("pos.localhost", true),
                ("stall", true), ("stall.local:8737", true), ("TILL.example", true),
                ("till.example.", true), ("192.168.1.5", true), ("1.2.3.4.evil.example", false),
            ] {
                let connection = try RawConnection(port: port)
                try connection.send(
                    "GET /api/status HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(Self.token)\r\nConnection: close\r\n\r\n"
                )
                let answer = try await connection.readUntilClosed()
                let status = admitted ? "HTTP/1.1 200" : "HTTP/1.1 421"
                #expect(answer.hasPrefix(status), "\(host): \(answer.prefix(200))")
                #expect(answer.lowercased().contains("x-content-type-options: nosniff"))
            }
            let connection = try RawConnection(port: port)
            try connection.send("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n")
            let health = try await connection.readUntilClosed()
            #expect(health.hasPrefix("HTTP/1.1 200"))
            #expect(health.lowercased().contains("cross-origin-resource-policy: same-origin"))
        }
    }
}

/// A blocking TCP connection to 127.0.0.1, its waits off the cooperative pool.
final class RawConnection: Sendable {
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        // A bound for a server that never closes: the test fails rather than hangs.
        var timeout = timeval(tv_sec: Int(Duration.generousWait.components.seconds), tv_usec: 0)
        setsockopt(
            descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return }
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw POSIXError(.EPIPE)
        }
    }

    /// Everything the server sends until it closes the connection.
    func readUntilClosed() async throws -> String { try await read(until: nil) }

    /// What the server sends until `marker` arrives (nil: until it closes the connection).
    func read(until marker: String?) async throws -> String {
        let descriptor = descriptor
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count > 0 {
                        received += buffer.prefix(count)
                        let text = String(decoding: received, as: UTF8.self)
                        if let marker, text.contains(marker) {
                            continuation.resume(returning: text)
                            return
                        }
                        continue
                    }
                    if count == 0 || errno == ECONNRESET {
                        continuation.resume(returning: String(decoding: received, as: UTF8.self))
                    } else {
                        continuation.resume(throwing: POSIXError(.ETIMEDOUT))
                    }
                    return
                }
            }
        }
    }
}
