import BlueZ
import NodeKit

extension NodeError {
    /// A Bluetooth failure as the node reports it: no bluetoothd, bus, adapter or radio is
    /// `unavailable`, a D-Bus policy refusal `permission`, the rest `io`.
    init(_ error: BluetoothError) {
        switch error.kind {
        case .bluetoothdNotRunning, .noSystemBus, .adapterNotFound, .adapterOff, .rfkillBlocked:
            self.init(.unavailable(error.description))
        case .permissionDenied: self.init(.permission(error.description))
        case .notConnected, .timedOut, .missingService, .peerMisbehaved, .bluez:
            self.init(.io(error.description))
        }
    }
}

/// Runs `body`, a Bluetooth failure thrown as the `NodeError` it is.
func reportingBluetooth<T>(_ body: () async throws -> T) async throws -> T {
    do { return try await body() } catch let error as BluetoothError { throw NodeError(error) }
}
