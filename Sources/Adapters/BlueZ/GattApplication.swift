import DBus

/// A GATT server of one primary service, exported for BlueZ to publish (the peripheral's
/// side): `GattManager1.RegisterApplication` reads it through ObjectManager.
public actor GattApplication {
    public struct Characteristic: Sendable {
        public let uuid: BluetoothUUID
        /// BlueZ flags: "read", "write", "write-without-response", "notify", …
        public let flags: [String]
        public let onRead: (@Sendable (Request) async throws(DBusError) -> [UInt8])?
        public let onWrite: (@Sendable ([UInt8], Request) async throws(DBusError) -> Void)?

        public init(
            uuid: BluetoothUUID, flags: [String],
            onRead: (@Sendable (Request) async throws(DBusError) -> [UInt8])? = nil,
            onWrite: (@Sendable ([UInt8], Request) async throws(DBusError) -> Void)? = nil
        ) {
            self.uuid = uuid
            self.flags = flags
            self.onRead = onRead
            self.onWrite = onWrite
        }
    }

    /// Who asks, as BlueZ's options tell it.
    public struct Request: Sendable {
        /// The remote device's object path.
        public let device: ObjectPath?
        public let offset: Int
        /// The ATT MTU of that device's link, when BlueZ gives it.
        public let mtu: Int?
        /// "request" or "command" (write without response), for writes.
        public let type: String?

        init(_ options: DBusValue?) {
            let map = options?.stringKeyed?.mapValues(\.unwrapped) ?? [:]
            device = map["device"]?.objectPath
            offset = Int(map["offset"]?.uint16 ?? 0)
            mtu = map["mtu"]?.uint16.map(Int.init)
            type = map["type"]?.string
        }
    }

    public let root: ObjectPath
    public let service: BluetoothUUID
    private let characteristics: [Characteristic]
    private var server: ObjectServer?
    private var notifying: Set<ObjectPath> = []

    public init(root: ObjectPath, service: BluetoothUUID, characteristics: [Characteristic]) {
        self.root = root
        self.service = service
        self.characteristics = characteristics
    }

    var servicePath: ObjectPath { root.appending("service0")! }

    func characteristicPath(_ index: Int) -> ObjectPath { servicePath.appending("char\(index)")! }

    /// Exports the objects on `bus` (call before registering with an adapter).
    public func export(on bus: BusConnection) async throws(DBusError) {
        let server = try await ObjectServer.start(connection: bus, root: root)
        try await server.add(
            servicePath,
            [
                ExportedInterface(
                    BlueZNames.gattService,
                    properties: ["UUID": .string(service.text), "Primary": .boolean(true)])
            ])
        for (index, characteristic) in characteristics.enumerated() {
            try await server.add(characteristicPath(index), [interface(for: characteristic, index)])
        }
        self.server = server
    }

    public func unexport() async {
        await server?.stop()
        server = nil
    }

    /// Notifies `value` to the centrals subscribed to characteristic `uuid` (BlueZ sends a
    /// PropertiesChanged of Value as a notification to every subscribed device).
    public func notify(_ uuid: BluetoothUUID, _ value: [UInt8]) async throws(DBusError) {
        guard let index = characteristics.firstIndex(where: { $0.uuid == uuid }) else {
            throw DBusError(.invalidArgs, "no characteristic \(uuid)")
        }
        let path = characteristicPath(index)
        guard notifying.contains(path), let server else { return }
        try await server.set(path, BlueZNames.characteristic, "Value", .bytes(value))
    }

    public func isNotifying(_ uuid: BluetoothUUID) -> Bool {
        guard let index = characteristics.firstIndex(where: { $0.uuid == uuid }) else {
            return false
        }
        return notifying.contains(characteristicPath(index))
    }

    private func setNotifying(_ path: ObjectPath, _ on: Bool) {
        if on { notifying.insert(path) } else { notifying.remove(path) }
    }

    private func interface(for characteristic: Characteristic, _ index: Int) -> ExportedInterface {
        let path = characteristicPath(index)
        var methods: [String: MethodHandler] = [:]
        if let onRead = characteristic.onRead { methods["ReadValue"] = Self.reading(onRead) }
        if let onWrite = characteristic.onWrite { methods["WriteValue"] = Self.writing(onWrite) }
        if characteristic.flags.contains("notify") {
            methods["StartNotify"] = { [weak self] _ in
                await self?.setNotifying(path, true)
                return []
            }
            methods["StopNotify"] = { [weak self] _ in
                await self?.setNotifying(path, false)
                return []
            }
        }
        return ExportedInterface(
            BlueZNames.characteristic,
            properties: [
                "UUID": .string(characteristic.uuid.text), "Service": .objectPath(servicePath),
                "Flags": .strings(characteristic.flags),
            ],
            methods: methods)
    }
}

extension GattApplication {
    fileprivate static func reading(
        _ onRead: @escaping @Sendable (Request) async throws(DBusError) -> [UInt8]
    ) -> MethodHandler {
        { call throws(DBusError) in
            let value = try await onRead(Request(call.body.first))
            return [DBusValue.bytes(value)]
        }
    }

    fileprivate static func writing(
        _ onWrite: @escaping @Sendable ([UInt8], Request) async throws(DBusError) -> Void
    ) -> MethodHandler {
        { call throws(DBusError) in
            guard let value = call.body.first?.bytes else {
                throw DBusError(name: "org.bluez.Error.InvalidArguments", message: "no value")
            }
            try await onWrite(value, Request(call.body.count > 1 ? call.body[1] : nil))
            return []
        }
    }
}

extension Adapter {
    /// Registers an exported application with this adapter's GATT manager; cancel the
    /// registration to unregister.
    public func register(
        _ application: GattApplication
    ) async throws(BluetoothError) -> Registration {
        let root = application.root
        do {
            try await session.bus.call(
                BlueZNames.service, path, BlueZNames.gattManager, "RegisterApplication",
                [.objectPath(root), .propertyMap([:])])
        } catch {
            throw BluetoothError(error, doing: "registering the GATT application on \(name)")
        }
        let adapter = self
        // Awaitable: an unregistration still in flight when the same root registers again
        // (bluetoothd restarted) would drop the new registration half way.
        return Registration(undoing: {
            _ = try? await adapter.session.bus.call(
                BlueZNames.service, adapter.path, BlueZNames.gattManager,
                "UnregisterApplication",
                [.objectPath(root)], timeout: .seconds(3))
        })
    }
}
