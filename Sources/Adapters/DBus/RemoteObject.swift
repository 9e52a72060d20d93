/// An object of another connection (e.g. `org.bluez` at `/org/bluez/hci0`): its methods and
/// its properties through org.freedesktop.DBus.Properties.
public struct RemoteObject: Sendable {
    public let connection: BusConnection
    public let destination: String
    public let path: ObjectPath

    public init(_ connection: BusConnection, destination: String, path: ObjectPath) {
        self.connection = connection
        self.destination = destination
        self.path = path
    }

    @discardableResult
    public func call(
        _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(25)
    ) async throws(DBusError) -> [DBusValue] {
        try await connection.call(destination, path, interface, member, arguments, timeout: timeout)
    }

    public func property(_ interface: String, _ name: String) async throws(DBusError) -> DBusValue {
        let reply = try await call(Self.properties, "Get", [.string(interface), .string(name)])
        guard let value = reply.first?.unwrapped else {
            throw DBusError.unexpected("\(interface).\(name)", reply.first)
        }
        return value
    }

    public func properties(_ interface: String) async throws(DBusError) -> [String: DBusValue] {
        let reply = try await call(Self.properties, "GetAll", [.string(interface)])
        guard let map = reply.first?.stringKeyed else {
            throw DBusError.unexpected("properties of \(interface)", reply.first)
        }
        return map.mapValues(\.unwrapped)
    }

    public func setProperty(
        _ interface: String, _ name: String, _ value: DBusValue
    ) async throws(DBusError) {
        try await call(
            Self.properties, "Set", [.string(interface), .string(name), .variant(value)])
    }

    /// ObjectManager.GetManagedObjects: every object below this one, with its interfaces and
    /// their properties.
    public func managedObjects() async throws(DBusError)
        -> [ObjectPath: [String: [String: DBusValue]]]
    {
        let reply = try await call(
            "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        guard let objects = reply.first?.pathKeyed else {
            throw DBusError.unexpected("GetManagedObjects", reply.first)
        }
        var result: [ObjectPath: [String: [String: DBusValue]]] = [:]
        for (path, interfaces) in objects {
            result[path] = InterfaceMaps.decode(interfaces)
        }
        return result
    }

    static let properties = "org.freedesktop.DBus.Properties"
}

/// `a{sa{sv}}` (interfaces and their properties) as nested dictionaries.
public enum InterfaceMaps {
    public static func decode(_ value: DBusValue) -> [String: [String: DBusValue]] {
        var result: [String: [String: DBusValue]] = [:]
        for (name, properties) in value.stringKeyed ?? [:] {
            result[name] = (properties.stringKeyed ?? [:]).mapValues(\.unwrapped)
        }
        return result
    }
}
