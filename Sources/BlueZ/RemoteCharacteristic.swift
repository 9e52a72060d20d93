import DBus

/// A characteristic of a connected device (the central's side).
public struct RemoteCharacteristic: Sendable {
    public let session: BluetoothSession
    public let path: ObjectPath
    /// BlueZ's flags: "read", "write", "write-without-response", "notify", …
    public let flags: Set<String>

    var object: RemoteObject {
        RemoteObject(session.bus, destination: BlueZNames.service, path: path)
    }

    public func read() async throws(BluetoothError) -> [UInt8] {
        let reply: [DBusValue]
        do {
            reply = try await object.call(
                BlueZNames.characteristic, "ReadValue", [.propertyMap([:])])
        } catch { throw BluetoothError(error, doing: "reading \(path)") }
        guard let bytes = reply.first?.bytes else {
            throw BluetoothError(
                .bluez, "ReadValue on \(path) answered \(reply.first?.signature ?? "nothing")")
        }
        return bytes
    }

    public enum WriteKind: String, Sendable {
        /// Write request: the peer acknowledges each value.
        case request
        /// Write command (without response): no acknowledgement, can be lost under load.
        case command
    }

    public func write(_ value: [UInt8], kind: WriteKind) async throws(BluetoothError) {
        do {
            try await object.call(
                BlueZNames.characteristic, "WriteValue",
                [.bytes(value), .propertyMap(["type": .string(kind.rawValue)])])
        } catch { throw BluetoothError(error, doing: "writing \(value.count) bytes to \(path)") }
    }

    /// The characteristic's notifications, from now until the stream is dropped (which
    /// stops them).
    public func notifications() async throws(BluetoothError) -> AsyncStream<[UInt8]> {
        let changes = try await session.propertyChanges(
            of: BlueZNames.characteristic, at: path, doing: "subscribing to \(path)")
        do { try await object.call(BlueZNames.characteristic, "StartNotify") } catch {
            throw BluetoothError(error, doing: "subscribing to \(path)")
        }
        let object = self.object
        return AsyncStream { continuation in
            let task = Task {
                for await change in changes {
                    guard change.body.count > 1,
                        let value = change.body[1].stringKeyed?["Value"]?.bytes
                    else { continue }
                    continuation.yield(value)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                task.cancel()
                Task { _ = try? await object.call(BlueZNames.characteristic, "StopNotify") }
            }
        }
    }

    /// A socket for write-without-response and the negotiated ATT MTU (AcquireWrite): each
    /// `write` on it is one ATT value, with no D-Bus round trip.
    public func acquireWrite() async throws(BluetoothError) -> (socket: UnixFD, mtu: Int) {
        try await acquire("AcquireWrite")
    }

    /// A socket that delivers each notification as one read (AcquireNotify), and the MTU.
    public func acquireNotify() async throws(BluetoothError) -> (socket: UnixFD, mtu: Int) {
        try await acquire("AcquireNotify")
    }

    private func acquire(
        _ member: String
    ) async throws(BluetoothError) -> (socket: UnixFD, mtu: Int) {
        let reply: [DBusValue]
        do {
            reply = try await object.call(BlueZNames.characteristic, member, [.propertyMap([:])])
        } catch {
            throw BluetoothError(error, doing: "\(member) on \(path)")
        }
        guard reply.count == 2, let socket = reply[0].unixFD, let mtu = reply[1].uint16 else {
            throw BluetoothError(.bluez, "\(member) answered \(reply.map(\.signature).joined())")
        }
        return (socket, Int(mtu))
    }
}
