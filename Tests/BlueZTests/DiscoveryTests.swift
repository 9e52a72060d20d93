import BusTestSupport
import DBus
import TenderTestSupport
import Testing

@testable import BlueZ

/// Discovery sessions, against an adapter served on a private bus under BlueZ's name that
/// keeps one discovery session per D-Bus sender, as bluetoothd does: a discovery that ended
/// never stops the one begun after it, and stopping before a connection stops it for all.
@Suite struct DiscoveryTests {
    static let service = BluetoothUUID("7e0d0001-5c1a-4c4e-9f2b-8b1f6c1d2e3f")!

    /// A payer's discovery for its next try begun while the last one's stream is still
    /// being let go: whichever order bluetoothd hears them in, the next one discovers.
    @Test func aDiscoveryEndingAfterTheNextBeganLeavesTheNextDiscovering() async throws {
        let rig = try await AdapterRig()
        for _ in 0..<10 {
            var ending: AsyncStream<NearbyDevice>? = try await rig.adapter.discover(
                service: Self.service)
            let next = try await rig.adapter.discover(service: Self.service)
            try await rig.waitForUsers(2)
            _ = ending
            ending = nil  // Dropped: its end is sent from the stream's termination.
            try await rig.waitForUsers(1)
            #expect(await rig.fake.discovering == [rig.client.bus.uniqueName])
            _ = next
        }
    }

    @Test func stoppingBeforeAConnectionStopsItAndTheNextBeginsAgain() async throws {
        let rig = try await AdapterRig()
        let service = Self.service
        var first: AsyncStream<NearbyDevice>? = try await rig.adapter.discover(service: service)
        #expect(await rig.fake.discovering == [rig.client.bus.uniqueName])
        await rig.adapter.stopDiscovery()
        #expect(await rig.fake.discovering.isEmpty)
        _ = first
        first = nil
        let second = try await rig.adapter.discover(service: service)
        try await rig.waitForUsers(1)
        #expect(await rig.fake.discovering == [rig.client.bus.uniqueName])
        _ = second
    }
}

/// A private bus, an adapter served under BlueZ's name, and a client session to it.
private struct AdapterRig {
    let bus: PrivateBus
    let fake: FakeAdapter
    let client: BluetoothSession
    let adapter: Adapter

    init() async throws {
        bus = try PrivateBus()
        let served = try await bus.connect()
        try await served.requestName(BlueZNames.service)
        fake = try await FakeAdapter.serve(on: served)
        client = BluetoothSession(bus: try await bus.connect())
        adapter = Adapter(session: client, name: "hci0", path: FakeAdapter.path)
    }

    /// Waits until the client counts `users` of the adapter's discovery.
    func waitForUsers(_ users: Int) async throws {
        let deadline = ContinuousClock.now + .generousWait
        while await client.clientSessions.count(adapter.path) != users,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await client.clientSessions.count(adapter.path) == users)
    }
}

/// bluetoothd's side of one adapter's discovery sessions.
private actor FakeAdapter {
    static let path = ObjectPath(checked: "/org/bluez/hci0")
    private(set) var discovering: Set<String> = []
    private var server: ObjectServer?

    static func serve(on connection: BusConnection) async throws -> FakeAdapter {
        let fake = FakeAdapter()
        let server = try await ObjectServer.start(connection: connection, root: .root)
        try await server.add(
            path,
            [
                ExportedInterface(
                    BlueZNames.adapter,
                    properties: [
                        "Powered": .boolean(true), "Address": .string("00:AA:01:00:00:00"),
                    ],
                    methods: senderSessionMethods(
                        start: "StartDiscovery", stop: "StopDiscovery",
                        onStart: { sender throws(DBusError) in try await fake.start(sender) },
                        onStop: { sender throws(DBusError) in try await fake.stop(sender) }
                    ).merging(["SetDiscoveryFilter": { _ in [] }]) { $1 })
            ])
        await fake.keep(server)
        return fake
    }

    private func keep(_ server: ObjectServer) { self.server = server }

    /// As bluetoothd: a second start from one sender is "in progress".
    private func start(_ sender: String) throws(DBusError) {
        guard discovering.insert(sender).inserted else {
            throw DBusError(
                name: "org.bluez.Error.InProgress", message: "Operation already in progress")
        }
    }

    private func stop(_ sender: String) throws(DBusError) {
        guard discovering.remove(sender) != nil else {
            throw DBusError(name: "org.bluez.Error.Failed", message: "No discovery started")
        }
    }
}
