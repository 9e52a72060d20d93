import DBus
import Foundation
import TenderTestSupport

/// A dbus-daemon of the test's own, on a socket in a temporary folder, stopped when dropped.
/// Its policy lets anyone own and call anything, except what the access tests need refused.
public final class PrivateBus: Sendable {
    public let address: String
    public let folder: TemporaryDirectory
    private let daemon: Process

    public init() throws {
        folder = try TemporaryDirectory("tender-dbus")
        let socket = folder.file("bus")
        let config = folder.file("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <deny send_destination="org.example.Guarded" send_interface="org.example.Secret"/>
          </policy>
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        // The daemon prints its address once it listens (the socket file exists a moment
        // before that, and a connection then is refused).
        daemon.arguments = [
            "--config-file=\(config)", "--nofork", "--nopidfile", "--nosyslog", "--print-address=1",
        ]
        let announced = Pipe()
        daemon.standardOutput = announced
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        address = "unix:path=\(socket)"
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = announced.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += chunk
        }
    }

    public func connect() async throws -> BusConnection {
        try await BusConnection.connect(to: address)
    }

    /// Stops the daemon: every connection to it is cut.
    public func stop() {
        // dbus-daemon does not end on SIGTERM.
        if daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
    }

    deinit {
        stop()
        folder.remove()
    }

    /// Runs busctl (systemd's independent D-Bus client) against this bus; its output. Waits
    /// without holding a thread of the test's cooperative pool: the objects busctl calls are
    /// served by tasks of that pool. A call may wait 300 s for its answer, not busctl's 25: on
    /// a busy 2-core machine (the whole suite beside the BLE lab's guests) a call once waited
    /// longer than 25 s and failed ("Connection timed out").
    public func busctl(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        process.arguments = ["--address=\(address)", "--timeout=300"] + arguments
        let output = folder.file("busctl-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardOutput = handle
        process.standardError = handle
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in done.resume() }
            do { try process.run() } catch { done.resume() }
        }
        try handle.close()
        return try String(contentsOfFile: output, encoding: .utf8)
    }
}
