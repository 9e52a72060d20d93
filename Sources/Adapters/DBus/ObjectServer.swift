/// A tree of exported objects under one root, the way BlueZ wants applications served:
/// `org.freedesktop.DBus.ObjectManager` on the root (GetManagedObjects, InterfacesAdded,
/// InterfacesRemoved), `org.freedesktop.DBus.Properties` on every object (Get, GetAll, Set,
/// PropertiesChanged) and each interface's own methods.
public actor ObjectServer {
    public let connection: BusConnection
    public let root: ObjectPath
    private var objects: [ObjectPath: [String: ExportedInterface]] = [:]
    private var registration: Registration?

    private init(connection: BusConnection, root: ObjectPath) {
        self.connection = connection
        self.root = root
    }

    /// A server answering calls to `root` and everything below it.
    public static func start(
        connection: BusConnection, root: ObjectPath
    ) async throws(DBusError)
        -> ObjectServer
    {
        let server = ObjectServer(connection: connection, root: root)
        try await server.register()
        return server
    }

    private func register() throws(DBusError) {
        let handler: MethodHandler = { [weak self] call throws(DBusError) in
            guard let self else { throw DBusError(.unknownObject, "the object server has stopped") }
            return try await self.handle(call)
        }
        registration = try connection.export(root, subtree: true, handler)
    }

    /// Stops answering; BlueZ sees the objects vanish.
    public func stop() {
        registration?.cancel()
        registration = nil
        objects = [:]
    }

    /// Adds (or replaces) an object and announces it.
    public func add(_ path: ObjectPath, _ interfaces: [ExportedInterface]) throws(DBusError) {
        guard path.isDescendant(of: root) else {
            throw DBusError(.invalidArgs, "\(path) is not below \(root)")
        }
        var table: [String: ExportedInterface] = [:]
        for interface in interfaces { table[interface.name] = interface }
        objects[path] = table
        if path != root {
            try? connection.emit(
                root, Self.objectManager, "InterfacesAdded",
                [.objectPath(path), Self.interfaceMap(table)])
        }
    }

    /// Removes an object and announces it.
    public func remove(_ path: ObjectPath) {
        guard let table = objects.removeValue(forKey: path), path != root else { return }
        try? connection.emit(
            root, Self.objectManager, "InterfacesRemoved",
            [.objectPath(path), .strings(table.keys.sorted())])
    }

    /// Changes a property and emits PropertiesChanged (how a GATT server notifies).
    public func set(
        _ path: ObjectPath, _ interface: String, _ name: String, _ value: DBusValue
    ) throws(DBusError) {
        guard objects[path]?[interface] != nil else {
            throw DBusError(.unknownInterface, "\(path) has no \(interface)")
        }
        objects[path]?[interface]?.properties[name] = value
        try connection.emit(
            path, Self.properties, "PropertiesChanged",
            [.string(interface), .propertyMap([name: value]), .strings([])])
    }

    public func property(_ path: ObjectPath, _ interface: String, _ name: String) -> DBusValue? {
        objects[path]?[interface]?.properties[name]
    }

    // MARK: - Calls

    private func handle(_ call: Message) async throws(DBusError) -> [DBusValue] {
        guard let path = call.path, let table = objects[path] ?? (path == root ? [:] : nil)
        else {
            throw DBusError(.unknownObject, "no object at \(call.path?.rawValue ?? "?")")
        }
        let member = call.member ?? ""
        switch call.interface {
        case Self.objectManager? where path == root && member == "GetManagedObjects":
            return [managedObjects()]
        case Self.properties?:
            return try properties(call, member: member, table: table, path: path)
        case let name?:
            guard let interface = table[name] else {
                throw DBusError(.unknownInterface, "\(path) has no interface \(name)")
            }
            guard let method = interface.methods[member] else {
                throw DBusError(.unknownMethod, "\(name) has no method \(member)")
            }
            return try await method(call)
        case nil:
            // No interface named: the first interface that has the method.
            for interface in table.values.sorted(by: { $0.name < $1.name }) {
                if let method = interface.methods[member] { return try await method(call) }
            }
            throw DBusError(.unknownMethod, "\(path) has no method \(member)")
        }
    }

    private func properties(
        _ call: Message, member: String, table: [String: ExportedInterface], path: ObjectPath
    ) throws(DBusError) -> [DBusValue] {
        let interfaceName = try call.argument(0).string ?? ""
        guard let interface = table[interfaceName] else {
            throw DBusError(.unknownInterface, "\(path) has no interface \(interfaceName)")
        }
        switch member {
        case "GetAll":
            return [.propertyMap(interface.properties)]
        case "Get":
            let name = try call.argument(1).string ?? ""
            guard let value = interface.properties[name] else {
                throw DBusError(.unknownProperty, "\(interfaceName) has no property \(name)")
            }
            return [.variant(value)]
        case "Set":
            let name = try call.argument(1).string ?? ""
            guard interface.properties[name] != nil else {
                throw DBusError(.unknownProperty, "\(interfaceName) has no property \(name)")
            }
            throw DBusError(.propertyReadOnly, "\(interfaceName).\(name) is read-only")
        default:
            throw DBusError(.unknownMethod, "Properties has no method \(member)")
        }
    }

    private func managedObjects() -> DBusValue {
        let entries = objects.filter { $0.key != root }.sorted { $0.key < $1.key }.map {
            DictionaryEntry(.objectPath($0.key), Self.interfaceMap($0.value))
        }
        return .dictionary(key: "o", value: "a{sa{sv}}", entries)
    }

    private static func interfaceMap(_ table: [String: ExportedInterface]) -> DBusValue {
        .dictionary(
            key: "s", value: "a{sv}",
            table.values.sorted { $0.name < $1.name }.map {
                DictionaryEntry(.string($0.name), .propertyMap($0.properties))
            })
    }

    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let properties = "org.freedesktop.DBus.Properties"
}

/// One interface of an exported object: its properties (read-only to callers) and methods.
public struct ExportedInterface: Sendable {
    public let name: String
    public var properties: [String: DBusValue]
    public var methods: [String: MethodHandler]

    public init(
        _ name: String, properties: [String: DBusValue] = [:],
        methods: [String: MethodHandler] = [:]
    ) {
        self.name = name
        self.properties = properties
        self.methods = methods
    }
}
