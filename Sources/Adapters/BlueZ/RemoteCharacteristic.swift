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

    /// The characteristic's notifications, from now until `end()` (or until the stream is
    /// dropped). The values end when the link can bring no more: the device disconnected, or
    /// the characteristic went away (the peer's service unregistered: its process ended).
    public func notifications() async throws(BluetoothError) -> Notifications {
        let changes = try await session.propertyChanges(
            of: BlueZNames.characteristic, at: path, doing: "subscribing to \(path)")
        let gone = try await endOfLink()
        let object = self.object
        let sessions = session.clientSessions
        do { try await sessions.begin(.notify, on: object) } catch {
            throw BluetoothError(error, doing: "subscribing to \(path)")
        }
        let ending = NotificationsEnd { await sessions.end(.notify, on: object) }
        let values = AsyncStream<[UInt8]> { continuation in
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await change in changes {
                            guard change.body.count > 1,
                                let value = change.body[1].stringKeyed?["Value"]?.bytes
                            else { continue }
                            continuation.yield(value)
                        }
                    }
                    group.addTask { for await _ in gone { return } }
                    await group.next()
                    group.cancelAll()
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                task.cancel()
                Task { await ending.run() }
            }
        }
        return Notifications(values: values, ending: ending)
    }

    /// One element when this characteristic can bring no more: its device's `Connected`
    /// turned false, or BlueZ removed the characteristic (or an object above it).
    private func endOfLink() async throws(BluetoothError) -> AsyncStream<Void> {
        let what = "watching the link of \(path)"
        let removed: AsyncStream<Message>
        do {
            removed = try await session.bus.signals(
                MatchRule(
                    sender: BlueZNames.service, interface: BlueZNames.objectManager,
                    member: "InterfacesRemoved"))
        } catch { throw BluetoothError(error, doing: what) }
        let disconnected: AsyncStream<Message>? =
            if let device = devicePath {
                try await session.propertyChanges(of: BlueZNames.device, at: device, doing: what)
            } else { nil }
        let path = self.path
        return AsyncStream { continuation in
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await signal in removed {
                            guard let gone = signal.body.first?.objectPath,
                                gone == path || path.isDescendant(of: gone)
                            else { continue }
                            return
                        }
                    }
                    if let disconnected {
                        group.addTask {
                            for await change in disconnected {
                                if change.body.count > 1,
                                    change.body[1].stringKeyed?["Connected"]?.bool == false
                                {
                                    return
                                }
                            }
                        }
                    }
                    await group.next()
                    group.cancelAll()
                }
                continuation.yield()
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The device this characteristic belongs to (`/org/bluez/hciN/dev_…`).
    private var devicePath: ObjectPath? {
        let parts = path.rawValue.split(separator: "/")
        guard let index = parts.firstIndex(where: { $0.hasPrefix("dev_") }) else { return nil }
        return ObjectPath("/" + parts[...index].joined(separator: "/"))
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

/// A subscription to a characteristic's notifications (RemoteCharacteristic.notifications).
public struct Notifications: Sendable {
    /// The values notified, in order; the stream ends with the link.
    public let values: AsyncStream<[UInt8]>
    fileprivate let ending: NotificationsEnd

    /// Unsubscribes, once; returns when BlueZ has been told (or was not needed: another
    /// subscriber of this connection still listens).
    public func end() async { await ending.run() }
}

/// The unsubscription, run at most once, whether `end()` or the stream's end comes first;
/// every caller returns once it has run.
private actor NotificationsEnd {
    private let action: @Sendable () async -> Void
    private var running: Task<Void, Never>?

    init(_ action: @escaping @Sendable () async -> Void) { self.action = action }

    func run() async {
        let task = running ?? Task { await action() }
        running = task
        await task.value
    }
}
