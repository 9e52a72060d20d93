import DBus

/// An LE advertisement (LEAdvertisement1) this node exports for BlueZ to broadcast.
public struct Advertisement: Sendable {
    public var serviceUUIDs: [BluetoothUUID]
    public var localName: String?
    /// Service data by service UUID: a few bytes BlueZ puts in the advertising packet.
    public var serviceData: [BluetoothUUID: [UInt8]]
    /// Manufacturer data by company id. A legacy advertisement has 31 bytes: flags and one
    /// 128-bit service UUID leave 10, room for 6 bytes of manufacturer data and nothing else.
    public var manufacturerData: [UInt16: [UInt8]]

    public init(
        serviceUUIDs: [BluetoothUUID], localName: String? = nil,
        serviceData: [BluetoothUUID: [UInt8]] = [:], manufacturerData: [UInt16: [UInt8]] = [:]
    ) {
        self.serviceUUIDs = serviceUUIDs
        self.localName = localName
        self.serviceData = serviceData
        self.manufacturerData = manufacturerData
    }

    var properties: [String: DBusValue] {
        var properties: [String: DBusValue] = [
            "Type": .string("peripheral"),
            "ServiceUUIDs": .strings(serviceUUIDs.map(\.text)),
            "Discoverable": .boolean(true),
        ]
        if let localName { properties["LocalName"] = .string(localName) }
        if !serviceData.isEmpty {
            properties["ServiceData"] = .dictionary(
                key: "s", value: "v",
                serviceData.sorted { $0.key.text < $1.key.text }.map {
                    DictionaryEntry(.string($0.key.text), .variant(.bytes($0.value)))
                })
        }
        if !manufacturerData.isEmpty {
            properties["ManufacturerData"] = .dictionary(
                key: "q", value: "v",
                manufacturerData.sorted { $0.key < $1.key }.map {
                    DictionaryEntry(.uint16($0.key), .variant(.bytes($0.value)))
                })
        }
        return properties
    }
}

extension Adapter {
    /// Exports `advertisement` at `path` and registers it; cancelling the registration
    /// unregisters it and frees the slot (adapters have few).
    public func advertise(
        _ advertisement: Advertisement, at path: ObjectPath
    ) async throws(BluetoothError)
        -> Registration
    {
        let bus = session.bus
        let server: ObjectServer
        do {
            server = try await ObjectServer.start(connection: bus, root: path)
            try await server.add(
                path,
                [
                    ExportedInterface(
                        BlueZNames.advertisement, properties: advertisement.properties,
                        methods: ["Release": { _ in [] }])
                ])
            try await bus.call(
                BlueZNames.service, self.path, BlueZNames.advertisingManager,
                "RegisterAdvertisement",
                [.objectPath(path), .propertyMap([:])])
        } catch { throw BluetoothError(error, doing: "advertising on \(name)") }
        let adapter = self
        return Registration(undoing: {
            _ = try? await bus.call(
                BlueZNames.service, adapter.path, BlueZNames.advertisingManager,
                "UnregisterAdvertisement", [.objectPath(path)], timeout: .seconds(3))
            await server.stop()
        })
    }
}
