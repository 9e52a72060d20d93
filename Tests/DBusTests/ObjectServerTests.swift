import BusTestSupport
import DBus
import Foundation
import Testing

/// The object tree BlueZ reads an application from: ObjectManager and Properties.
@Suite struct ObjectServerTests {
    let root = ObjectPath(checked: "/app")
    let service = ObjectPath(checked: "/app/service0")
    let characteristic = ObjectPath(checked: "/app/service0/char0")

    func serve(on bus: PrivateBus) async throws -> (BusConnection, ObjectServer) {
        let connection = try await bus.connect()
        let server = try await ObjectServer.start(connection: connection, root: root)
        try await server.add(
            service,
            [
                ExportedInterface(
                    "org.bluez.GattService1",
                    properties: ["UUID": .string("1234"), "Primary": .boolean(true)])
            ])
        try await server.add(
            characteristic,
            [
                ExportedInterface(
                    "org.bluez.GattCharacteristic1",
                    properties: [
                        "UUID": .string("5678"), "Service": .objectPath(service),
                        "Flags": .strings(["read", "notify"]),
                    ],
                    methods: [
                        "ReadValue": { _ in [.bytes([1, 2, 3])] },
                        "WriteValue": { call throws(DBusError) in
                            guard call.body.first?.bytes != nil else {
                                throw DBusError(
                                    name: "org.bluez.Error.InvalidValueLength", message: "no value")
                            }
                            return []
                        },
                    ])
            ])
        return (connection, server)
    }

    @Test func managedObjectsListEveryObjectWithItsProperties() async throws {
        let bus = try PrivateBus()
        let (connection, server) = try await serve(on: bus)
        defer { withExtendedLifetime(server) {} }
        let client = try await bus.connect()
        let objects = try await RemoteObject(client, destination: connection.uniqueName, path: root)
            .managedObjects()
        #expect(Set(objects.keys) == [service, characteristic])
        #expect(objects[service]?["org.bluez.GattService1"]?["Primary"] == .boolean(true))
        #expect(
            objects[characteristic]?["org.bluez.GattCharacteristic1"]?["Service"]
                == .objectPath(service))
    }

    @Test func propertiesAndMethodsAnswerAndUnknownsAreNamed() async throws {
        let bus = try PrivateBus()
        let (connection, server) = try await serve(on: bus)
        defer { withExtendedLifetime(server) {} }
        let client = try await bus.connect()
        let remote = RemoteObject(client, destination: connection.uniqueName, path: characteristic)
        #expect(
            try await remote.property("org.bluez.GattCharacteristic1", "UUID") == .string("5678"))
        #expect(
            try await remote.properties("org.bluez.GattCharacteristic1")["Flags"]
                == .strings(["read", "notify"]))
        #expect(
            try await remote.call("org.bluez.GattCharacteristic1", "ReadValue", [.propertyMap([:])])
                == [.bytes([1, 2, 3])])
        await #expect(
            throws: DBusError(name: "org.bluez.Error.InvalidValueLength", message: "no value")
        ) {
            try await remote.call("org.bluez.GattCharacteristic1", "WriteValue", [.string("x")])
        }
        for (interface, member, known) in [
            ("org.bluez.GattCharacteristic1", "Nope", DBusError.Known.unknownMethod),
            ("org.example.Missing", "ReadValue", .unknownInterface),
        ] {
            do {
                try await remote.call(interface, member)
                Issue.record("\(interface).\(member) answered")
            } catch { #expect(error.is(known)) }
        }
        do {
            try await remote.setProperty("org.bluez.GattCharacteristic1", "UUID", .string("x"))
            Issue.record("a read-only property was set")
        } catch { #expect(error.is(.propertyReadOnly)) }
        do {
            _ = try await remote.property("org.bluez.GattCharacteristic1", "Missing")
            Issue.record("a missing property was read")
        } catch { #expect(error.is(.unknownProperty)) }
    }

    @Test func changesAreSignalled() async throws {
        let bus = try PrivateBus()
        let (connection, server) = try await serve(on: bus)
        let client = try await bus.connect()
        let changes = try await client.signals(
            MatchRule(
                sender: connection.uniqueName, interface: "org.freedesktop.DBus.Properties",
                member: "PropertiesChanged", path: characteristic))
        let added = try await client.signals(
            MatchRule(interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded"))
        try await server.set(
            characteristic, "org.bluez.GattCharacteristic1", "Value", .bytes([7, 7]))
        var changeIterator = changes.makeAsyncIterator()
        let change = try #require(await changeIterator.next())
        #expect(change.body.first == .string("org.bluez.GattCharacteristic1"))
        #expect(change.body[1].stringKeyed?["Value"]?.bytes == [7, 7])

        let later = ObjectPath(checked: "/app/service1")
        try await server.add(
            later, [ExportedInterface("org.bluez.GattService1", properties: ["UUID": .string("9")])]
        )
        var addedIterator = added.makeAsyncIterator()
        let announcement = try #require(await addedIterator.next())
        #expect(announcement.body.first == .objectPath(later))
        #expect(
            InterfaceMaps.decode(announcement.body[1])["org.bluez.GattService1"]?["UUID"]
                == .string("9"))
    }

    @Test func busctlSeesTheSameTree() async throws {
        let bus = try PrivateBus()
        let (connection, server) = try await serve(on: bus)
        defer { withExtendedLifetime(server) {} }
        let output = try await bus.busctl([
            "call", "--json=short", connection.uniqueName, "/app",
            "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
        ])
        #expect(output.contains("\"/app/service0/char0\""))
        #expect(output.contains("\"org.bluez.GattCharacteristic1\""))
        #expect(output.contains("\"notify\""))
    }
}
