import DBus

/// A remote device (`/org/bluez/hciN/dev_XX_…`).
public struct Device: Sendable, Equatable {
    public let session: BluetoothSession
    public let path: ObjectPath
    public let address: String

    public static func == (lhs: Device, rhs: Device) -> Bool { lhs.path == rhs.path }

    var object: RemoteObject {
        RemoteObject(session.bus, destination: BlueZNames.service, path: path)
    }

    /// Connects, retrying transient failures (BlueZ reports aborted LE connections as
    /// org.bluez.Error.Failed), up to `attempts` times.
    public func connect(
        attempts: Int = 3, timeout: Duration = .seconds(20)
    ) async throws(BluetoothError) {
        var last = BluetoothError(.timedOut, "connecting to \(address)")
        for attempt in 1...max(1, attempts) {
            do {
                try await object.call(BlueZNames.device, "Connect", timeout: timeout)
                return
            } catch  where error.name == "org.bluez.Error.AlreadyConnected" {
                return
            } catch {
                last = BluetoothError(error, doing: "connecting to \(address) (attempt \(attempt))")
                if last.kind == .bluetoothdNotRunning || last.kind == .permissionDenied {
                    throw last
                }
                // "Operation already in progress": a connection another client (or a payer
                // that exited) left up, or one still being set up or torn down.
                if await isConnected() { return }
                try? await Task.sleep(for: .milliseconds(500 * attempt))
            }
        }
        throw last
    }

    public func disconnect() async {
        _ = try? await object.call(BlueZNames.device, "Disconnect", timeout: .seconds(5))
    }

    /// Disconnects and, unless the device is paired, forgets it. BlueZ keeps the GATT services
    /// of the last connection and, once they are resolved, no longer takes the service UUIDs
    /// a device advertises: a payee that restarted (its service registered anew) would stay
    /// hidden from the next discovery behind the stale list.
    public func disconnectAndForget() async {
        await disconnect()
        guard (try? await object.property(BlueZNames.device, "Paired").bool) == false,
            let slash = path.rawValue.lastIndex(of: "/"),
            let adapter = ObjectPath(String(path.rawValue[..<slash]))
        else { return }
        _ = try? await RemoteObject(session.bus, destination: BlueZNames.service, path: adapter)
            .call(BlueZNames.adapter, "RemoveDevice", [.objectPath(path)], timeout: .seconds(5))
    }

    /// "public" or "random" (BlueZ's AddressType), nil when unknown.
    public func addressType() async -> String? {
        try? await object.property(BlueZNames.device, "AddressType").string
    }

    public func isConnected() async -> Bool {
        (try? await object.property(BlueZNames.device, "Connected").bool) ?? false
    }

    /// Waits until BlueZ has resolved the device's GATT services (or the timeout).
    public func servicesResolved(timeout: Duration) async throws(BluetoothError) {
        let changes = try await session.propertyChanges(
            of: BlueZNames.device, at: path, doing: "watching \(address)")
        if (try? await object.property(BlueZNames.device, "ServicesResolved").bool) == true {
            return
        }
        let resolved = await firstOf(timeout: timeout) {
            for await change in changes {
                let properties = change.body.count > 1 ? change.body[1].stringKeyed : nil
                if properties?["ServicesResolved"]?.bool == true { return true }
                if properties?["Connected"]?.bool == false { return false }
            }
            return false
        }
        guard resolved == true else {
            throw BluetoothError(
                resolved == nil ? .timedOut : .notConnected,
                resolved == nil
                    ? "\(address) did not resolve its services within \(timeout)"
                    : "\(address) disconnected before its services were resolved")
        }
    }

    /// The characteristic `characteristic` of service `service`. BlueZ can report services
    /// resolved before every characteristic object exists, so this looks again until
    /// `timeout`.
    public func characteristic(
        _ characteristic: BluetoothUUID, of service: BluetoothUUID, timeout: Duration = .seconds(5)
    ) async throws(BluetoothError) -> RemoteCharacteristic {
        let deadline = ContinuousClock.now + timeout
        while true {
            let objects = try await session.managedObjects(doing: "reading \(address)'s services")
            let services = Set(
                objects.compactMap { path, interfaces in
                    interfaces[BlueZNames.gattService]?["UUID"]?.string == service.text
                        && path.isDescendant(of: self.path) ? path : nil
                })
            for (path, interfaces) in objects {
                guard let properties = interfaces[BlueZNames.characteristic],
                    properties["UUID"]?.string == characteristic.text,
                    let owner = properties["Service"]?.objectPath, services.contains(owner)
                else { continue }
                return RemoteCharacteristic(
                    session: session, path: path,
                    flags: Set(properties["Flags"]?.strings ?? []))
            }
            guard ContinuousClock.now < deadline else {
                throw BluetoothError(
                    .missingService,
                    "\(address) has no characteristic \(characteristic) in service \(service)")
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }
}

/// The first result of `body`, or nil after `timeout`.
func firstOf<T: Sendable>(timeout: Duration, _ body: @escaping @Sendable () async -> T) async -> T?
{
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
