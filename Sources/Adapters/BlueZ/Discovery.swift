import DBus
import Synchronization

/// A device seen advertising, as discovery reports it.
public struct NearbyDevice: Sendable, Equatable {
    public let device: Device
    public let name: String?
    public let rssi: Int16?
    public let uuids: [String]
    /// Service data by service UUID.
    public let serviceData: [String: [UInt8]]
    /// Manufacturer data by company id (Tender's request tag lives here).
    public let manufacturerData: [UInt16: [UInt8]]

    public var address: String { device.address }
}

extension Adapter {
    /// LE discovery of devices that advertise `service`: each report as it comes (a device
    /// again when its RSSI or data changes), devices BlueZ already knows first. Discovery
    /// stops when the stream is dropped, or after `duration` (the stream then ends). BlueZ may
    /// take more than 10 s to report a device.
    public func discover(
        service: BluetoothUUID, for duration: Duration? = nil
    ) async throws(BluetoothError)
        -> AsyncStream<NearbyDevice>
    {
        // Subscribed before discovery starts, so no report falls in between.
        let signals = try await session.propertyChanges(
            of: BlueZNames.device, below: path, doing: "watching discovery on \(name)")
        let added: AsyncStream<Message>
        do {
            added = try await session.bus.signals(
                MatchRule(
                    sender: BlueZNames.service, interface: BlueZNames.objectManager,
                    member: "InterfacesAdded"))
        } catch { throw BluetoothError(error, doing: "watching discovery on \(name)") }
        try await call(
            "SetDiscoveryFilter",
            [
                .propertyMap([
                    "UUIDs": .strings([service.text]), "Transport": .string("le"),
                    "DuplicateData": .boolean(true),
                ])
            ])
        let known = try await session.managedObjects(doing: "listing known devices")
        let sessions = session.clientSessions
        do { try await sessions.begin(.discovery, on: object) } catch {
            throw BluetoothError(error, doing: "StartDiscovery on \(name)")
        }

        let adapter = self
        let object = self.object
        return AsyncStream { continuation in
            let tracker = DeviceTracker(adapter: adapter, service: service)
            for (path, interfaces) in known {
                if let properties = interfaces[BlueZNames.device],
                    let report = tracker.update(path, properties)
                {
                    continuation.yield(report)
                }
            }
            let watch = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await signal in added {
                            guard let path = signal.body.first?.objectPath, signal.body.count > 1,
                                let properties = InterfaceMaps.decode(signal.body[1])[
                                    BlueZNames.device],
                                let report = tracker.update(path, properties)
                            else { continue }
                            continuation.yield(report)
                        }
                    }
                    group.addTask {
                        for await signal in signals {
                            guard let path = signal.path, signal.body.count > 1,
                                let changed = signal.body[1].stringKeyed?.mapValues(\.unwrapped),
                                let report = tracker.update(path, changed)
                            else { continue }
                            continuation.yield(report)
                        }
                    }
                }
                continuation.finish()
            }
            let timer = duration.map { duration in
                Task {
                    try? await Task.sleep(for: duration)
                    continuation.finish()
                }
            }
            continuation.onTermination = { _ in
                watch.cancel()
                timer?.cancel()
                // Counted: a discovery begun since keeps going (ClientSessions).
                Task { await sessions.end(.discovery, on: object) }
            }
        }
    }
}

extension Adapter {
    /// Stops this client's discovery now (ending a `discover` stream stops it too, but later):
    /// BlueZ aborts an LE connection attempt when discovery restarts under it, so a central
    /// stops discovering before it connects.
    public func stopDiscovery() async {
        await session.clientSessions.stopNow(.discovery, on: object)
    }
}

/// What discovery knows of each device so far: property changes arrive piecemeal.
private final class DeviceTracker: Sendable {
    let adapter: Adapter
    let service: BluetoothUUID
    private let known = Mutex<[ObjectPath: [String: DBusValue]]>([:])

    init(adapter: Adapter, service: BluetoothUUID) {
        self.adapter = adapter
        self.service = service
    }

    /// Merges `properties` into what is known of `path`; a report when the device advertises
    /// the service.
    func update(_ path: ObjectPath, _ properties: [String: DBusValue]) -> NearbyDevice? {
        guard path.isDescendant(of: adapter.path), path != adapter.path else { return nil }
        let merged = known.withLock { known in
            known[path, default: [:]].merge(properties) { $1 }
            return known[path]!
        }
        let uuids = merged["UUIDs"]?.strings ?? []
        let serviceData = (merged["ServiceData"]?.stringKeyed ?? [:]).compactMapValues(\.bytes)
        guard uuids.contains(service.text) || serviceData[service.text] != nil,
            let address = merged["Address"]?.string
        else { return nil }
        return NearbyDevice(
            device: adapter.device(at: path, address: address),
            name: merged["Name"]?.string ?? merged["Alias"]?.string,
            rssi: merged["RSSI"]?.int16, uuids: uuids, serviceData: serviceData,
            manufacturerData: (merged["ManufacturerData"]?.uint16Keyed ?? [:]).compactMapValues(
                \.bytes))
    }
}
