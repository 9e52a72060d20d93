import DBus

/// The way into BlueZ: a system-bus connection (or any bus, for tests and labs) and the
/// adapters bluetoothd offers on it.
public struct BluetoothSession: Sendable {
    public let bus: BusConnection
    /// Notify and discovery sessions this connection holds, shared by their users.
    let clientSessions = ClientSessions()

    public init(bus: BusConnection) { self.bus = bus }

    /// Connects to the system bus, or to `busAddress`.
    public static func open(
        busAddress: String? = nil
    ) async throws(BluetoothError) -> BluetoothSession {
        do {
            let bus = try await BusConnection.connect(
                to: busAddress ?? BusConnection.systemBusAddress)
            return BluetoothSession(bus: bus)
        } catch {
            throw BluetoothError(error, doing: "connecting to the system bus")
        }
    }

    /// Every object bluetoothd has (adapters, devices, services, characteristics).
    func managedObjects(
        doing what: String
    ) async throws(BluetoothError)
        -> [ObjectPath: [String: [String: DBusValue]]]
    {
        do {
            return try await RemoteObject(bus, destination: BlueZNames.service, path: .root)
                .managedObjects()
        } catch { throw BluetoothError(error, doing: what) }
    }

    /// The adapters' names (hci0, hci1, …), sorted.
    public func adapterNames() async throws(BluetoothError) -> [String] {
        try await managedObjects(doing: "listing adapters")
            .filter { $0.value[BlueZNames.adapter] != nil }
            .map { String($0.key.rawValue.split(separator: "/").last ?? "") }
            .sorted()
    }

    /// The adapter called `name`, or the first one when `name` is nil. Waits up to `wait` for
    /// it to appear (bluetoothd starting, a dongle being plugged in) before saying it is not
    /// there.
    public func adapter(
        _ name: String? = nil, wait: Duration = .seconds(10)
    ) async throws(BluetoothError)
        -> Adapter
    {
        let deadline = ContinuousClock.now + wait
        while true {
            do { return try await presentAdapter(name) } catch {
                let retry = error.kind == .adapterNotFound || error.kind == .bluetoothdNotRunning
                guard retry, ContinuousClock.now < deadline else { throw error }
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    private func presentAdapter(_ name: String?) async throws(BluetoothError) -> Adapter {
        let names = try await adapterNames()
        guard let chosen = name ?? names.first else {
            throw BluetoothError(
                .adapterNotFound, "no Bluetooth adapter (bluetoothd is running but has none)")
        }
        guard names.contains(chosen), let path = BlueZNames.busRoot.appending(chosen) else {
            throw BluetoothError(
                .adapterNotFound,
                "no adapter \(chosen); adapters here: \(names.isEmpty ? "none" : names.joined(separator: ", "))"
            )
        }
        return Adapter(session: self, name: chosen, path: path)
    }

    /// BlueZ's PropertiesChanged signals for `interface` on the object at `path` (or on every
    /// object below `namespace`), from now on.
    func propertyChanges(
        of interface: String, at path: ObjectPath? = nil, below namespace: ObjectPath? = nil,
        doing what: String
    ) async throws(BluetoothError) -> AsyncStream<Message> {
        do {
            return try await bus.signals(
                MatchRule(
                    sender: BlueZNames.service, interface: BlueZNames.properties,
                    member: "PropertiesChanged", path: path, pathNamespace: namespace,
                    arg0: interface))
        } catch { throw BluetoothError(error, doing: what) }
    }

    /// bluetoothd starting and stopping (org.bluez gaining or losing its owner), from now on.
    public func bluetoothdChanges() async throws(BluetoothError) -> AsyncStream<BluetoothdChange> {
        let signals: AsyncStream<Message>
        do {
            signals = try await bus.signals(
                MatchRule(
                    sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                    member: "NameOwnerChanged", arg0: BlueZNames.service))
        } catch { throw BluetoothError(error, doing: "watching bluetoothd") }
        return AsyncStream { continuation in
            let task = Task {
                for await signal in signals {
                    let newOwner = signal.body.count > 2 ? signal.body[2].string ?? "" : ""
                    continuation.yield(newOwner.isEmpty ? .stopped : .started)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Whether bluetoothd is on the bus now.
    public func bluetoothdIsRunning() async throws(BluetoothError) -> Bool {
        do { return try await bus.owner(of: BlueZNames.service) != nil } catch {
            throw BluetoothError(error, doing: "looking for bluetoothd")
        }
    }
}

public enum BluetoothdChange: Sendable, Equatable {
    case started
    case stopped
}
