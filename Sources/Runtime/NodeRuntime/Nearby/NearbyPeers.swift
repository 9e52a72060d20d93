import BlueZ
import Bluetooth
import Tender

/// Tender payees advertising nearby (`tender peers`), as discovery finds them.
public enum NearbyPeers {
    /// A payee as its advertisement shows it.
    public struct Peer: Sendable {
        public let address: String
        public let name: String?
        /// Signal strength, dBm.
        public let rssi: Int16?
        /// The first bytes of its current request's id, and the amount it asks (base units:
        /// the advertisement carries no asset), when it advertises a request.
        public let requestIDPrefix: [UInt8]?
        public let amount: Amount?
    }

    /// Listens for `duration` on `adapterName` (default: the first); `found` hears each payee
    /// when first seen. Returns every payee seen, by address.
    public static func listen(
        adapterName: String?, for duration: Duration, found: @Sendable (Peer) -> Void
    ) async throws -> [Peer] {
        try await reportingBluetooth {
            let bluetooth = try await BluetoothSession.open()
            let adapter = try await bluetooth.adapter(adapterName)
            try await adapter.requirePowered()
            var seen: [String: Peer] = [:]
            for await report in try await adapter.discover(
                service: TenderGATT.service, for: duration)
            {
                let peer = Peer(report)
                if seen[report.address] == nil { found(peer) }
                seen[report.address] = peer
            }
            return seen.values.sorted { $0.address < $1.address }
        }
    }
}

extension NearbyPeers.Peer {
    init(_ device: NearbyDevice) {
        let tag = device.manufacturerData[TenderGATT.tagCompany].flatMap(TenderGATT.readTag)
        self.init(
            address: device.address, name: device.name, rssi: device.rssi,
            requestIDPrefix: tag.map(\.idPrefix), amount: tag?.amount)
    }
}
