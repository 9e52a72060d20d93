import Dispatch
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NodeKit
import NodeTestSupport
import TenderTestSupport
import Testing

@testable import NodeAPI

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
        }
        // A request sent whole is answered as before (under the default deadlines, so that a
        // busy machine's delay between connecting and sending is never what closes it).
        try await application(ConnectionLimits()).test(.live) { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            try connection.send(
                "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(try await connection.readUntilClosed().hasPrefix("HTTP/1.1 200"))
        }
    }

    /// A request refused before its body came (no token) is answered and its connection
    /// closed at once: a client without the token cannot hold a place for the body timeout
    /// by announcing a body it never sends.
    @Test func aRequestRefusedBeforeItsBodyClosesItsConnection() async throws {
        var limits = ConnectionLimits()
        limits.headTimeout = .seconds(3_600)
        limits.bodyTimeout = .seconds(3_600)
        try await application(limits).test(.live) { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            try connection.send(
                "POST /api/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
            let answer = try await connection.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(200))")
        }
    }

    /// Past the cap, the connection waiting longest for a request head makes room (or the new
    /// one is closed when all are busy): idle connections can neither run the node out of
    /// descriptors nor keep a client with a request out. (Which of three connections is closed
    /// is the server's order, not the test's.)
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
            // Two places for three connections (and the test's own client): the last ones in
            // hold them, the ones before were closed to make room.
            #expect(answers.contains { $0.hasPrefix("HTTP/1.1 200") }, "\(answers)")
            #expect(answers.contains { $0.isEmpty }, "\(answers)")
            #expect(answers.allSatisfy { $0.isEmpty || $0.hasPrefix("HTTP/1.1 200") })
        }
    }

    /// The places' table: a new connection takes a free place, or the place of the one
    /// waiting longest for a request head (closed), and is refused when every one is busy.
    @Test func aNewConnectionTakesThePlaceOfTheOneWaitingLongest() throws {
        let count = ConnectionCount()
        let channels = (0..<4).map { _ in EmbeddedChannel() }
        for channel in channels {
            try channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        }
        let ids = channels.map { ObjectIdentifier($0) }
        #expect(count.enter(ids[0], channel: channels[0], limit: 2))
        #expect(count.enter(ids[1], channel: channels[1], limit: 2))
        count.waiting(ids[1], false)  // reading a request
        #expect(count.enter(ids[2], channel: channels[2], limit: 2))
        #expect(!channels[0].isActive && channels[1].isActive && channels[2].isActive)
        #expect(count.current == 2)
        count.waiting(ids[2], false)
        #expect(!count.enter(ids[3], channel: channels[3], limit: 2))
        #expect(count.current == 2)
        count.leave(ids[1])
        #expect(count.enter(ids[3], channel: channels[3], limit: 2))
    }

    /// A client that pipelines requests and never reads the answers is closed once they stop
    /// fitting its buffers, instead of having them piled up in the node's memory.
    @Test func aClientThatNeverReadsItsAnswersIsClosed() async throws {
        try await application(ConnectionLimits()).test(.live) { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port, receiveBuffer: 4096)
            let request = "GET /pos HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            // Far more answers (about 30 kB each) than the buffers hold: a send fails once
            // the node has closed the connection.
            var refused = false
            for _ in 0..<2_000 {
                do { try connection.send(String(repeating: request, count: 10)) } catch {
                    refused = true
                    break
                }
            }
            if !refused { refused = try await connection.readUntilClosed().count < 2_000 * 30_000 }
            #expect(refused)
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
        let hosts = HostAllowList.forMachine("stall", adding: ["till.example", "kiosk.example."])
        try await application(ConnectionLimits(), hosts: hosts).test(.live) { client in
            let port = try #require(client.port)
            for (host, admitted) in [
                ("evil.example", false), ("evil.example:8737", false), ("127.0.0.1:8737", true),
                ("[::1]:8737", true), ("localhost:8737", true), ("pos.localhost", true),
                ("stall", true), ("stall.local:8737", true), ("TILL.example", true),
                ("till.example.", true), ("192.168.1.5", true), ("1.2.3.4.evil.example", false),
                // Malformed authorities no browser sends, refused rather than read loosely.
                ("[evil.example]", false), ("[::1]evil.example", false),
                ("127.0.0.1:80@evil.example", false), ("localhost:abc", false),
                ("localhost.", true), ("evil example", false), ("kiosk.example", true),
                ("kiosk.example.:8737", true),
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

    /// What a stranger's malformed or odd request gets: a request with two Host fields is
    /// refused (400), and so is one the parser cannot read, marked like any other answer; a
    /// CONNECT (whose answer HTTP/1 frames by no length) is refused and its connection closed,
    /// said so, even when the client asked to keep it.
    @Test func oddRequestsGetFramedAndMarkedRefusals() async throws {
        try await application(ConnectionLimits()).test(.live) { client in
            let port = try #require(client.port)
            for (request, status) in [
                (
                    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
                    "HTTP/1.1 400"
                ),
                ("GET /he\u{1}lthz HTTP/9.9 what\r\n\r\n", "HTTP/1.1 400"),
                (
                    "CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\nConnection: keep-alive\r\n\r\n",
                    "HTTP/1.1 4"
                ),
            ] {
                let connection = try RawConnection(port: port)
                try connection.send(request)
                let answer = try await connection.readUntilClosed()
                #expect(answer.hasPrefix(status), "\(request): \(answer.prefix(300))")
                let lower = answer.lowercased()
                #expect(lower.contains("x-content-type-options: nosniff"), "\(answer.prefix(300))")
                #expect(lower.contains("cross-origin-resource-policy: same-origin"))
                #expect(
                    lower.contains("content-length:") || lower.contains("connection: close"),
                    "\(request): \(answer.prefix(300))")
            }
        }
    }
}

/// A blocking TCP connection to 127.0.0.1, its waits off the cooperative pool.
final class RawConnection: Sendable {
    let descriptor: Int32

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(
                descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
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
