import DBus

/// One local Bluetooth controller (`/org/bluez/hciN`).
public struct Adapter: Sendable {
    public let session: BluetoothSession
    /// hci0, hci1, …
    public let name: String
    public let path: ObjectPath

    var object: RemoteObject {
        RemoteObject(session.bus, destination: BlueZNames.service, path: path)
    }

    func property(_ name: String) async throws(BluetoothError) -> DBusValue {
        do { return try await object.property(BlueZNames.adapter, name) } catch {
            throw BluetoothError(error, doing: "reading \(self.name)'s \(name)")
        }
    }

    public func address() async throws(BluetoothError) -> String {
        try await property("Address").string ?? ""
    }

    public func isPowered() async throws(BluetoothError) -> Bool {
        try await property("Powered").bool ?? false
    }

    /// Powers the adapter on if it is off; a clear error when rfkill blocks it.
    public func powerOn() async throws(BluetoothError) {
        if try await isPowered() { return }
        do { try await object.setProperty(BlueZNames.adapter, "Powered", .boolean(true)) } catch {
            throw BluetoothError(error, doing: "powering \(name) on")
        }
        guard try await isPowered() else {
            throw BluetoothError(.adapterOff, "\(name) did not power on (is it blocked by rfkill?)")
        }
    }

    /// Fails with `.adapterOff` unless the adapter is powered.
    public func requirePowered() async throws(BluetoothError) {
        guard try await isPowered() else {
            throw BluetoothError(
                .adapterOff, "\(name) is off; power it on with `bluetoothctl power on`")
        }
    }

    /// The device at `path` (from discovery).
    public func device(at path: ObjectPath, address: String) -> Device {
        Device(session: session, path: path, address: address)
    }

    /// Forgets a device (its cached services go with it: BlueZ's GATT cache can go stale).
    public func remove(_ device: Device) async {
        _ = try? await object.call(BlueZNames.adapter, "RemoveDevice", [.objectPath(device.path)])
    }

    func call(
        _ member: String, _ arguments: [DBusValue] = [], interface: String = BlueZNames.adapter
    )
        async throws(BluetoothError)
    {
        do { try await object.call(interface, member, arguments) } catch {
            throw BluetoothError(error, doing: "\(member) on \(name)")
        }
    }
}
