import Foundation
import Posix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where printer bytes go. `send` blocks until the bytes are handed over (or the timeout
/// passes); it does not wait for the paper to come out.
public enum PrinterSink: Sendable, Equatable {
    /// A printer device node such as `/dev/usb/lp0`, or any existing file or FIFO. Opened for
    /// writing in append mode, never created, truncated or replaced (a typo must not turn a
    /// device path into a regular file). A FIFO without a reader is retried until the timeout.
    case device(path: String)
    /// A network printer's raw port (JetDirect / AppSocket, 9100): one TCP connection per job.
    case network(host: String, port: UInt16 = 9100)
    /// A CUPS queue (nil: the default destination) through `lp -o raw`, bytes on its stdin.
    case cups(queue: String?)

    /// Sends `bytes`.
    ///
    /// - Throws: `PrintingError` with kind `.deviceUnavailable` (open failed), `.connectionFailed`
    ///   (no address, refused, unreachable), `.writeFailed` (error part-way; the message says how
    ///   many bytes went), `.timedOut`, `.spoolerMissing` (no `lp` on PATH) or `.spoolerFailed`.
    public func send(_ bytes: [UInt8], timeout: Duration = .seconds(10)) throws(PrintingError) {
        let deadline = Deadline.after(timeout)
        switch self {
        case .device(let path): try DeviceSink.send(bytes, path: path, deadline: deadline)
        case .network(let host, let port):
            try NetworkSink.send(bytes, host: host, port: port, deadline: deadline)
        case .cups(let queue):
            try CUPSSink.send(
                bytes, queue: queue, searchPath: ProcessInfo.processInfo.environment["PATH"],
                deadline: deadline)
        }
    }
}

// MARK: Device

enum DeviceSink {
    static func send(_ bytes: [UInt8], path: String, deadline: Deadline) throws(PrintingError) {
        let flags = O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK
        var descriptor: FileDescriptor
        while true {
            do {
                descriptor = try FileDescriptor.open(path, flags)
            } catch  where error.code == ENXIO && !deadline.hasPassed {
                // A FIFO with no reader yet (or a printer still coming up): wait and retry.
                Deadline.sleep(milliseconds: 10)
                continue
            } catch  where error.code == ENXIO {
                throw PrintingError(.timedOut, "\(path): no reader appeared before the timeout")
            } catch {
                throw PrintingError(
                    .deviceUnavailable, "cannot open \(path) for writing: \(error.reason)")
            }
            break
        }
        let outcome = descriptor.writeAll(bytes, until: deadline, socket: false)
        descriptor.close()
        try check(outcome, total: bytes.count, target: path)
    }

    static func check(
        _ outcome: FileDescriptor.WriteOutcome, total: Int, target: String
    ) throws(PrintingError) {
        switch outcome {
        case .done: return
        case .timedOut(let written):
            throw PrintingError(
                .timedOut, "\(target) accepted \(written) of \(total) bytes before the timeout")
        case .failed(let error, let written):
            throw PrintingError(
                .writeFailed,
                "writing to \(target) failed after \(written) of \(total) bytes: \(error.reason)")
        }
    }
}

// MARK: Network

enum NetworkSink {
    static func send(
        _ bytes: [UInt8], host: String, port: UInt16, deadline: Deadline
    ) throws(PrintingError) {
        let target = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if os(Linux)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw PrintingError(
                .connectionFailed,
                "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }

        var lastError = PrintingError(.connectionFailed, "no address for \(host)")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor: FileDescriptor
            switch connect(address.pointee, deadline: deadline, target: target) {
            case .success(let connected): descriptor = connected
            case .failure(let error):
                lastError = error
                if error.kind == .timedOut { throw error }
                continue
            }
            let outcome = descriptor.writeAll(bytes, until: deadline, socket: true)
            _ = shutdown(descriptor.raw, Int32(SHUT_WR))
            descriptor.close()
            try DeviceSink.check(outcome, total: bytes.count, target: target)
            return
        }
        throw lastError
    }

    /// A non-blocking socket connected to one address within the deadline.
    private static func connect(
        _ address: addrinfo, deadline: Deadline, target: String
    ) -> Result<FileDescriptor, PrintingError> {
        let fd = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard fd >= 0 else {
            return .failure(
                PrintingError(
                    .connectionFailed,
                    "socket for \(target): \(SystemError("socket", code: errno).reason)"))
        }
        let descriptor = FileDescriptor(owning: fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        do throws(SystemError) {
            try descriptor.makeNonBlocking()
            do throws(SystemError) {
                // After EINTR the connection goes on in the background: EALREADY, then wait.
                _ = try retryingInterrupts("connect") {
                    systemConnect(fd, address.ai_addr, address.ai_addrlen)
                }
            } catch  where error.code == EINPROGRESS || error.code == EALREADY {
                guard try descriptor.wait(for: Int16(POLLOUT), until: deadline) else {
                    descriptor.close()
                    return .failure(
                        PrintingError(.timedOut, "no connection to \(target) before the timeout"))
                }
                var pending: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length)
                if pending != 0 { throw SystemError("connect", code: pending) }
            }
        } catch {
            descriptor.close()
            return .failure(
                PrintingError(.connectionFailed, "cannot connect to \(target): \(error.reason)"))
        }
        return .success(descriptor)
    }
}

private func systemConnect(
    _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t
) -> Int32 {
    connect(fd, address, length)
}

// MARK: CUPS

enum CUPSSink {
    /// `lp` on the given PATH, or nil.
    static func locateLP(searchPath: String?) -> String? {
        for directory in (searchPath ?? "").split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/lp"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `lp [-d QUEUE] -o raw`, the bytes on stdin, waiting for it until the deadline.
    static func send(
        _ bytes: [UInt8], queue: String?, searchPath: String?, deadline: Deadline
    ) throws(PrintingError) {
        guard let lp = locateLP(searchPath: searchPath) else {
            throw PrintingError(
                .spoolerMissing,
                "the CUPS client `lp` is not on PATH: install cups-client (Debian: apt install cups-client), "
                    + "or print with a device path or a network address instead")
        }
        // stdin is one end of a socket pair, not a pipe: if lp exits early our write gets
        // EPIPE from `send(MSG_NOSIGNAL)` instead of a SIGPIPE that would kill the caller.
        var pair: [Int32] = [-1, -1]
        #if os(Linux)
        let streamType = Int32(SOCK_STREAM.rawValue)
        #else
        let streamType = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, streamType, 0, &pair) == 0 else {
            throw PrintingError(
                .spoolerFailed,
                "cannot make a socket pair for lp: \(SystemError("socketpair", code: errno).reason)"
            )
        }
        let ours = FileDescriptor(owning: pair[0])
        _ = fcntl(pair[0], F_SETFD, FD_CLOEXEC)
        _ = try? ours.makeNonBlocking()
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(pair[0], SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: lp)
        process.arguments = (queue.map { ["-d", $0] } ?? []) + ["-o", "raw"]
        let output = Pipe()
        process.standardInput = theirs
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            try? theirs.close()
            ours.close()
            throw PrintingError(.spoolerFailed, "cannot run \(lp): \(error)")
        }
        try? theirs.close()
        // Drain lp's output on another thread so its pipe cannot fill while we write.
        let reader = output.fileHandleForReading
        let collected = Collected()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            collected.set(reader.readDataToEndOfFile())
            drained.signal()
        }
        let outcome = ours.writeAll(bytes, until: deadline, socket: true)
        _ = shutdown(ours.raw, Int32(SHUT_WR))
        ours.close()
        while process.isRunning {
            if deadline.hasPassed {
                process.terminate()
                process.waitUntilExit()
                throw PrintingError(.timedOut, "lp did not finish before the timeout")
            }
            Deadline.sleep(milliseconds: 10)
        }
        process.waitUntilExit()
        drained.wait()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: collected.get(), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw PrintingError(
                .spoolerFailed, "lp exited with status \(process.terminationStatus): \(text)")
        }
        try DeviceSink.check(outcome, total: bytes.count, target: "lp")
    }

    /// The output of `lp`, handed from the reading thread. @unchecked Sendable: every access
    /// holds the lock.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        func get() -> Data { lock.withLock { data } }
    }
}
