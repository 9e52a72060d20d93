import BlueZ
import DBus
import Testing

/// D-Bus failures as the Bluetooth errors they mean: bluetoothd gone, whether the bus has no
/// owner for org.bluez or tried to start it and failed (a host without systemd), is one kind,
/// which callers wait on (Hardware/ble-lab/README.md: BlueZ 5.66 can abort mid-session).
@Suite struct BluetoothErrorTests {
    @Test func bluetoothdGoneIsOneKindHoweverTheBusSaysIt() {
        for name in [
            "org.freedesktop.DBus.Error.ServiceUnknown",
            "org.freedesktop.DBus.Error.NameHasNoOwner",
            "org.freedesktop.DBus.Error.Spawn.ChildExited",
            "org.freedesktop.DBus.Error.Spawn.ExecFailed",
        ] {
            let error = BluetoothError(
                DBusError(name: name, message: "Launch helper exited with unknown return code 1"),
                doing: "listing adapters")
            #expect(error.kind == .bluetoothdNotRunning, "\(name)")
            #expect(error.message.hasPrefix("bluetoothd is not running"), "\(name)")
        }
    }

    @Test func aRefusalIsNotTakenForBluetoothdGone() {
        let error = BluetoothError(
            DBusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "policy"),
            doing: "listing adapters")
        #expect(error.kind == .permissionDenied)
    }
}
