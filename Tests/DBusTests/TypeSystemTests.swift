import BusTestSupport
import DBus
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every type BlueZ uses goes out and comes back unchanged through a real dbus-daemon.
@Suite struct TypeSystemTests {
    static let everyType: [DBusValue] = [
        .byte(0xFF), .boolean(true), .boolean(false), .int16(-32768), .uint16(65535),
        .int32(-7), .uint32(0xFFFF_FFFF), .int64(.min), .uint64(.max), .double(-0.5),
        .string(""), .string("Grüße ✓"), .objectPath(ObjectPath(checked: "/org/bluez/hci0")),
        .signature("a{sv}"), .bytes([]), .bytes(Array(0...255)),
        .array(element: "s", []), .strings(["info", "rx", "tx"]),
        .array(element: "(ys)", [.structure([.byte(1), .string("one")])]),
        .propertyMap([
            "UUID": .string("6e400001-b5a3-f393-e0a9-e50e24dcca9e"), "MTU": .uint16(517),
            "Flags": .strings(["read", "notify"]), "Data": .bytes([1, 2, 3]),
            "Nested": .variant(.variant(.int32(5))),
        ]),
        .dictionary(
            key: "o", value: "a{sa{sv}}",
            [
                DictionaryEntry(
                    .objectPath(ObjectPath(checked: "/app/service0")),
                    .dictionary(
                        key: "s", value: "a{sv}",
                        [
                            DictionaryEntry(
                                .string("org.bluez.GattService1"),
                                .propertyMap(["Primary": .boolean(true)]))
                        ]))
            ]),
        .dictionary(
            key: "q", value: "v", [DictionaryEntry(.uint16(0xFFFF), .variant(.bytes([9])))]),
        .structure([.string("a"), .array(element: "ay", [.bytes([1]), .bytes([])])]),
    ]

    @Test func everyValueComesBackAsSent() async throws {
        let bus = try PrivateBus()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let echo = try server.export(ObjectPath(checked: "/echo")) { call in call.body }
        let reply = try await client.call(
            server.uniqueName, ObjectPath(checked: "/echo"), "org.example.Echo", "Echo",
            Self.everyType)
        #expect(reply == Self.everyType)
        echo.cancel()
    }

    @Test func aDescriptorCrossesTheBusAsAWorkingDuplicate() async throws {
        let bus = try PrivateBus()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let received = ReceivedDescriptor()
        let export = try server.export(ObjectPath(checked: "/fd")) { call throws(DBusError) in
            guard let descriptor = call.body.first?.unixFD else {
                throw DBusError(.invalidArgs, "no fd")
            }
            received.keep(descriptor)
            return []
        }
        var ends: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let sent = UnixFD(owning: ends[0])
        try await client.call(
            server.uniqueName, ObjectPath(checked: "/fd"), "org.example.Fd", "Take", [.unixFD(sent)]
        )
        let descriptor = try #require(received.value)
        #expect(descriptor.rawValue != sent.rawValue)
        let written = [UInt8]("through the bus".utf8)
        #expect(write(descriptor.rawValue, written, written.count) == written.count)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(ends[1], &buffer, buffer.count)
        #expect(Array(buffer[0..<max(0, count)]) == written)
        close(ends[1])
        export.cancel()
    }

    @Test func busctlReadsWhatWeSendAndWeReadWhatItSends() async throws {
        let bus = try PrivateBus()
        let server = try await bus.connect()
        try await server.requestName("org.example.Echo")
        let export = try server.export(ObjectPath(checked: "/echo")) { call in call.body }
        // busctl is systemd's own D-Bus implementation (sd-bus), not libdbus.
        let output = try await bus.busctl([
            "call", "--json=short", "--", "org.example.Echo", "/echo", "org.example.Echo", "Echo",
            "a{sv}ayo", "2", "Name", "s", "tender", "RSSI", "n", "-60", "3", "1", "2", "255",
            "/org/bluez/hci0",
        ])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "a{sv}ayo")
        let data = try #require(json["data"] as? [Any])
        let map = try #require(data[0] as? [String: [String: Any]])
        #expect(map["Name"]?["data"] as? String == "tender")
        #expect(map["RSSI"]?["data"] as? Int == -60)
        #expect(data[1] as? [Int] == [1, 2, 255])
        #expect(data[2] as? String == "/org/bluez/hci0")
        export.cancel()
    }

    @Test func whatLibdbusWouldAbortOnIsRefusedWithAnError() async throws {
        let bus = try PrivateBus()
        let client = try await bus.connect()
        let path = ObjectPath(checked: "/x")
        await #expect(throws: DBusError.self) {
            try await client.call(
                "org.example.X", path, "org.example.X", "M", [.string("nul\0byte")])
        }
        await #expect(throws: DBusError.self) {
            try await client.call("org.example.X", path, "not an interface", "M")
        }
        await #expect(throws: DBusError.self) {
            try await client.call(
                "org.example.X", path, "org.example.X", "M", [.array(element: "s", [.int32(1)])])
        }
        await #expect(throws: DBusError.self) {
            try await client.call("org.example.X", path, "org.example.X", "M", [.signature("a{")])
        }
        #expect(ObjectPath("/trailing/") == nil)
        #expect(ObjectPath("/a//b") == nil)
        #expect(ObjectPath("/dev_AA_BB") != nil)
        #expect(ObjectPath("relative") == nil)
    }
}

/// Holds the descriptor a handler received, for the test to use.
final class ReceivedDescriptor: Sendable {
    private let box = Mutex<UnixFD?>(nil)
    func keep(_ descriptor: UnixFD) { box.withLock { $0 = descriptor } }
    var value: UnixFD? { box.withLock { $0 } }
}
