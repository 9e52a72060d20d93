import Foundation
import Posix
import TenderTestSupport
import Testing

@testable import Printing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct PrinterSinkTests {
    static let job: [UInt8] = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }

    // MARK: Device

    @Test func deviceSinkAppendsToAnExistingFile() throws {
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        let path = directory.file("lp0")
        try Data([0x41]).write(to: URL(fileURLWithPath: path))
        try PrinterSink.device(path: path).send(Self.job)
        try PrinterSink.device(path: path).send([0x42])
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == [0x41] + Self.job + [0x42])
    }

    @Test func deviceSinkNeverCreatesAFile() throws {
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        let path = directory.file("usb/lp9")
        #expect {
            try PrinterSink.device(path: path).send([0x1B, 0x40])
        } throws: { error in
            (error as? PrintingError)?.kind == .deviceUnavailable
                && (error as? PrintingError)?.message.contains(path) == true
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func deviceSinkWritesIntoAFIFO() throws {
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        let path = directory.file("printer.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        // The reader starts after the writer on purpose: the sink waits for it (ENXIO retry).
        let received = Received()
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            usleep(100_000)
            received.set(Self.readAll(path))
            done.signal()
        }
        reader.start()
        try PrinterSink.device(path: path).send(Self.job, timeout: .seconds(60))
        done.wait()
        #expect(received.get() == Self.job)
    }

    /// Blocking open (waits for the writer) and read to end of file, as a printer driver would.
    static func readAll(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { _ = close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            out += buffer[0..<count]
        }
        return out
    }

    @Test func deviceSinkTimesOutWithoutAReader() throws {
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        let path = directory.file("nobody.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        let start = Date()
        #expect {
            try PrinterSink.device(path: path).send([0x0A], timeout: .milliseconds(200))
        } throws: { error in
            (error as? PrintingError)?.kind == .timedOut
        }
        #expect(Date().timeIntervalSince(start) < 9, "ended by its 200 ms, not the 10 s default")
    }

    @Test func deviceSinkTimesOutWhenNobodyReads() throws {
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        let path = directory.file("stuck.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        // A reader that never reads: the pipe buffer (64 KiB) fills, then the deadline passes.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { closeDescriptor(reader) }
        #expect {
            try PrinterSink.device(path: path).send(Self.job, timeout: .milliseconds(300))
        } throws: { error in
            guard let error = error as? PrintingError else { return false }
            return error.kind == .timedOut && error.message.contains("of \(Self.job.count) bytes")
        }
    }

    // MARK: Network

    @Test func networkSinkDeliversToARawPort() throws {
        let listener = try Listener()
        let received = Received()
        let done = DispatchSemaphore(value: 0)
        let fd = listener.fd
        let server = Thread {
            received.set(Listener.acceptAndReadAll(fd))
            done.signal()
        }
        server.start()
        try PrinterSink.network(host: "127.0.0.1", port: listener.port).send(
            Self.job, timeout: .seconds(60))
        done.wait()
        listener.close()
        #expect(received.get() == Self.job)
    }

    @Test func networkSinkTimesOutWhenThePrinterStopsReading() throws {
        // A peer that accepts (the kernel does) but never reads, with a small receive buffer:
        // the socket buffers fill and the deadline passes.
        let listener = try Listener(receiveBuffer: 4_096)
        defer { listener.close() }
        let big = [UInt8](repeating: 0x55, count: 32 << 20)
        #expect {
            try PrinterSink.network(host: "127.0.0.1", port: listener.port).send(
                big, timeout: .milliseconds(500))
        } throws: { error in
            guard let error = error as? PrintingError else { return false }
            return error.kind == .timedOut && error.message.contains("127.0.0.1:\(listener.port)")
        }
    }

    @Test func networkSinkReportsARefusedConnection() throws {
        let listener = try Listener()
        let port = listener.port
        listener.close()  // nothing listens there now
        #expect {
            try PrinterSink.network(host: "127.0.0.1", port: port).send(
                [0x0A], timeout: .seconds(5))
        } throws: { error in
            guard let error = error as? PrintingError else { return false }
            return error.kind == .connectionFailed && error.message.contains("127.0.0.1:\(port)")
        }
    }

    @Test func networkSinkDefaultsToPort9100() {
        #expect(
            PrinterSink.network(host: "printer.local")
                == .network(host: "printer.local", port: 9100))
    }

    // MARK: CUPS

    @Test func cupsSinkSaysWhenLpIsMissing() throws {
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        #expect(CUPSSink.locateLP(searchPath: directory.url.path) == nil)
        #expect(CUPSSink.locateLP(searchPath: nil) == nil)
        #expect {
            try CUPSSink.send(
                [0x0A], queue: "stall", searchPath: directory.url.path,
                deadline: .after(.seconds(1)))
        } throws: { error in
            guard let error = error as? PrintingError else { return false }
            return error.kind == .spoolerMissing && error.message.contains("`lp`")
                && error.message.contains("cups-client")
        }
    }

    /// A stand-in `lp` (a shell script) checks the plumbing: arguments, stdin, exit status.
    @Test func cupsSinkRunsLpRawWithTheBytesOnStdin() throws {
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        let script = """
            #!/bin/sh
            printf '%s\\n' "$@" > "\(directory.file("args"))"
            cat > "\(directory.file("job"))"
            echo "request id is stall-1 (1 file(s))"
            """
        try script.write(toFile: directory.file("lp"), atomically: true, encoding: .utf8)
        #expect(chmod(directory.file("lp"), 0o755) == 0)
        try CUPSSink.send(
            Self.job, queue: "stall", searchPath: "/nonexistent:" + directory.url.path,
            deadline: .after(.seconds(60)))
        #expect(
            try String(contentsOfFile: directory.file("args"), encoding: .utf8)
                == "-d\nstall\n-o\nraw\n")
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: directory.file("job")))) == Self.job)

        try CUPSSink.send(
            [0x0A], queue: nil, searchPath: directory.url.path,
            deadline: .after(.seconds(60)))
        #expect(try String(contentsOfFile: directory.file("args"), encoding: .utf8) == "-o\nraw\n")
    }

    @Test func cupsSinkReportsLpFailure() throws {
        let directory = try TemporaryDirectory("printing-tests")
        defer { directory.remove() }
        // Exits without reading stdin, as lp does for an unknown queue: no SIGPIPE may follow.
        let script = """
            #!/bin/sh
            echo "lp: The printer or class does not exist." >&2
            exit 1
            """
        try script.write(toFile: directory.file("lp"), atomically: true, encoding: .utf8)
        #expect(chmod(directory.file("lp"), 0o755) == 0)
        #expect {
            try CUPSSink.send(
                Self.job, queue: "nope", searchPath: directory.url.path,
                deadline: .after(.seconds(60)))
        } throws: { error in
            guard let error = error as? PrintingError else { return false }
            return error.kind == .spoolerFailed && error.message.contains("does not exist")
        }
    }
}

/// Bytes handed from a helper thread. @unchecked Sendable: every access holds the lock.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    func set(_ value: [UInt8]) { lock.withLock { bytes = value } }
    func get() -> [UInt8] { lock.withLock { bytes } }
}

/// A TCP listener on 127.0.0.1 with an ephemeral port.
struct Listener {
    let fd: Int32
    let port: UInt16

    init(receiveBuffer: Int32? = nil) throws {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure("socket: \(errno)") }
        if var size = receiveBuffer {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw Failure("bind/listen: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = UInt16(bigEndian: address.sin_port)
    }

    func close() { closeDescriptor(fd) }

    static func acceptAndReadAll(_ fd: Int32) -> [UInt8] {
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return [] }
        defer { closeDescriptor(client) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            out += buffer[0..<count]
        }
        return out
    }
}

/// close(2), outside any type whose own `close` would shadow it.
func closeDescriptor(_ fd: Int32) { _ = close(fd) }
