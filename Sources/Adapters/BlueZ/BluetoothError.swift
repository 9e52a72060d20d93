import DBus

/// What went wrong talking to Bluetooth, in terms a person can act on.
public struct BluetoothError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No org.bluez on the system bus (bluetoothd is not running).
        case bluetoothdNotRunning
        /// No system bus at all.
        case noSystemBus
        case adapterNotFound
        case adapterOff
        case rfkillBlocked
        /// The D-Bus policy does not let this user talk to org.bluez.
        case permissionDenied
        case notConnected
        case timedOut
        /// The device does not offer the service or characteristic asked for.
        case missingService
        /// The peer broke the protocol (its session, frames or answers).
        case peerMisbehaved
        /// Anything else BlueZ answered (its error name is in the message).
        case bluez
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// Maps a D-Bus failure of `what` to the kind it means.
    public init(_ error: DBusError, doing what: String) {
        let name = error.name
        if error.is(.serviceUnknown) || error.is(.nameHasNoOwner) {
            self.init(
                .bluetoothdNotRunning,
                "bluetoothd is not running (\(what): no org.bluez on the system bus)")
        } else if name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") {
            // The bus tried to start bluetoothd and could not (Debian's org.bluez.service
            // leaves it to systemd, absent in containers and small systems): not running.
            self.init(
                .bluetoothdNotRunning,
                "bluetoothd is not running and the system bus could not start it (\(what)): \(error.message)"
            )
        } else if error.is(.noServer) || error.is(.fileNotFound) {
            self.init(.noSystemBus, "no D-Bus system bus (\(what)): \(error.message)")
        } else if error.is(.accessDenied) {
            self.init(
                .permissionDenied,
                "the D-Bus policy does not allow this user to use org.bluez (\(what)): \(error.message); see Hardware/README.md for the policy file"
            )
        } else if error.is(.noReply) || error.is(.timeout) {
            self.init(.timedOut, "\(what) timed out: \(error.message)")
        } else if error.is(.disconnected) {
            self.init(.bluetoothdNotRunning, "the system bus connection closed (\(what))")
        } else if error.message.lowercased().contains("rfkill") || name == "org.bluez.Error.Blocked"
        {
            self.init(
                .rfkillBlocked,
                "the adapter is blocked by rfkill (\(what)); unblock it with `rfkill unblock bluetooth`"
            )
        } else if name == "org.bluez.Error.NotReady" {
            self.init(.adapterOff, "the adapter is not powered (\(what))")
        } else if name == "org.bluez.Error.NotConnected" {
            self.init(.notConnected, "the device is not connected (\(what))")
        } else {
            self.init(.bluez, "\(what) failed: \(error)")
        }
    }
}
