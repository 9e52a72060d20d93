import BlueZ
import Bluetooth
import Link

/// The payee under attack: its device and characteristics, connected once.
struct Target {
    let device: Device
    let rx: RemoteCharacteristic
    let tx: RemoteCharacteristic

    static func find(adapter name: String?) async throws -> Target {
        let session = try await BluetoothSession.open()
        let adapter = try await session.adapter(name)
        try await adapter.powerOn()
        var found: NearbyDevice?
        for await nearby in try await adapter.discover(
            service: TenderGATT.service, for: .seconds(60))
        {
            found = nearby
            break
        }
        guard let nearby = found else { throw HostileError("no payee found nearby") }
        try await nearby.device.connect()
        try await nearby.device.servicesResolved(timeout: .seconds(30))
        say("hostile: connected to \(nearby.device.address)")
        return Target(
            device: nearby.device,
            rx: try await nearby.device.characteristic(TenderGATT.rx, of: TenderGATT.service),
            tx: try await nearby.device.characteristic(TenderGATT.tx, of: TenderGATT.service))
    }

    /// A raw datagram to the payee's rx (write without response, as payers do).
    func write(_ datagram: [UInt8]) async throws {
        try await rx.write(datagram, kind: .command)
    }

    /// Runs `body` on a fresh link, closed (and its acquired socket released) before the
    /// next attack writes: BlueZ refuses plain writes while a socket holds the characteristic.
    func withLink<T>(_ body: (CentralLink) async throws -> T) async throws -> T {
        let link = try await CentralLink.open(rx: rx, tx: tx)
        do {
            let result = try await body(link)
            await link.close()
            return result
        } catch {
            await link.close()
            throw error
        }
    }

    func close() async { await device.disconnect() }
}

struct HostileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
