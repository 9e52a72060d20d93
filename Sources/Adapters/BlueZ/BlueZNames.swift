import DBus

/// BlueZ's D-Bus names (Docs/ARCHITECTURE.md, "Bluetooth").
enum BlueZNames {
    static let service = "org.bluez"
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let gattService = "org.bluez.GattService1"
    static let characteristic = "org.bluez.GattCharacteristic1"
    static let gattManager = "org.bluez.GattManager1"
    static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    static let advertisement = "org.bluez.LEAdvertisement1"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let root = ObjectPath.root
    static let busRoot = ObjectPath(checked: "/org/bluez")
}

/// A 128-bit UUID in BlueZ's lower-case text form; 16-bit ones are expanded on the base UUID.
public struct BluetoothUUID: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init?(_ text: String) {
        let lower = text.lowercased()
        let hex = Set("0123456789abcdef")
        if lower.count == 4, lower.allSatisfy(hex.contains) {
            self.text = "0000\(lower)-0000-1000-8000-00805f9b34fb"
            return
        }
        let groups = lower.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12],
            groups.allSatisfy({ $0.allSatisfy(hex.contains) })
        else { return nil }
        self.text = lower
    }

    public var description: String { text }
}
