import BusTestSupport
import DBus
import Testing

@testable import BlueZ

/// Subscriptions to a characteristic's notifications, against a characteristic served on a
/// private bus under BlueZ's name that keeps notify sessions the way bluetoothd does: one per
/// D-Bus sender, values sent only while that sender has one.
@Suite struct NotificationsTests {
    @Test func theLastSubscriberOutStopsTheSessionTheOthersShare() async throws {
        let rig = try await Rig()
        let first = try await rig.characteristic.notifications()
        let second = try await rig.characteristic.notifications()
        await first.end()
        #expect(await rig.fake.sessions == [rig.client.uniqueName])
        try await rig.fake.notify([1, 2, 3])
        #expect(await next(second.values) == [1, 2, 3])
        await second.end()
        #expect(await rig.fake.sessions.isEmpty)
        #expect(await rig.fake.stops == 1)
    }

    /// A payer's link ending while its next link to the same payee subscribes: whichever
    /// BlueZ hears first, the next link keeps the session (its acknowledgements come through).
    @Test func aSubscriptionEndingAsTheNextBeginsLeavesTheNextSubscribed() async throws {
        let rig = try await Rig()
        for _ in 0..<20 {
            let ending = try await rig.characteristic.notifications()
            async let ended: Void = ending.end()
            async let following = rig.characteristic.notifications()
            let (_, subscribed) = try await (ended, following)
            #expect(await rig.fake.sessions == [rig.client.uniqueName])
            try await rig.fake.notify([9])
            #expect(await NotificationsTests.next(subscribed.values) == [9])
            await subscribed.end()
            #expect(await rig.fake.sessions.isEmpty)
        }
    }

    /// BlueZ before 5.65 refuses a second StartNotify from one sender ("Already notifying").
    @Test func anOlderBlueZsAlreadyNotifyingIsASubscription() async throws {
        let rig = try await Rig(refusesSecondStart: true)
        let first = try await rig.characteristic.notifications()
        let second = try await rig.characteristic.notifications()
        await first.end()
        try await rig.fake.notify([4])
        #expect(await next(second.values) == [4])
        await second.end()
        #expect(await rig.fake.sessions.isEmpty)
    }

    /// bluetoothd forgets a sender's session when the device disconnects; the next
    /// subscriber asks again rather than trusting the count.
    @Test func aSessionBlueZForgotIsStartedAgain() async throws {
        let rig = try await Rig()
        let stale = try await rig.characteristic.notifications()
        await rig.fake.forgetSessions()
        let fresh = try await rig.characteristic.notifications()
        await stale.end()
        #expect(await rig.fake.sessions == [rig.client.uniqueName])
        try await rig.fake.notify([5])
        #expect(await next(fresh.values) == [5])
        await fresh.end()
    }

    @Test func droppingTheValuesEndsTheSubscription() async throws {
        let rig = try await Rig()
        do {
            let dropped = try await rig.characteristic.notifications()
            _ = dropped.values
        }
        let deadline = ContinuousClock.now + .generousWait
        while await !rig.fake.sessions.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await rig.fake.sessions.isEmpty)
    }

    @Test func aRefusedStartIsAnErrorAndCountsNoSubscriber() async throws {
        let rig = try await Rig(refusesEveryStart: true)
        await #expect(throws: BluetoothError.self) {
            _ = try await rig.characteristic.notifications()
        }
        #expect(await rig.client.notifySubscriptionCount(rig.characteristic) == 0)
    }

    private static func next(_ values: AsyncStream<[UInt8]>) async -> [UInt8]? {
        var iterator = values.makeAsyncIterator()
        return await iterator.next()
    }

    private func next(_ values: AsyncStream<[UInt8]>) async -> [UInt8]? {
        await Self.next(values)
    }
}

/// A private bus, a characteristic served under BlueZ's name, and a client session to it.
private struct Rig {
    let bus: PrivateBus
    let fake: FakeCharacteristic
    let client: BluetoothSession
    let characteristic: RemoteCharacteristic

    init(refusesSecondStart: Bool = false, refusesEveryStart: Bool = false) async throws {
        bus = try PrivateBus()
        let served = try await bus.connect()
        try await served.requestName(BlueZNames.service)
        fake = try await FakeCharacteristic.serve(
            on: served, refusesSecondStart: refusesSecondStart,
            refusesEveryStart: refusesEveryStart)
        client = BluetoothSession(bus: try await bus.connect())
        characteristic = RemoteCharacteristic(
            session: client, path: FakeCharacteristic.path, flags: ["notify"])
    }
}

extension BluetoothSession {
    fileprivate var uniqueName: String { bus.uniqueName }

    fileprivate func notifySubscriptionCount(_ characteristic: RemoteCharacteristic) async -> Int {
        await clientSessions.count(characteristic.path)
    }
}

/// bluetoothd's side of one characteristic's notify sessions.
private actor FakeCharacteristic {
    static let path = ObjectPath(
        checked: "/org/bluez/hci0/dev_00_AA_01_00_00_00/service0015/char0018")
    private(set) var sessions: Set<String> = []
    private(set) var stops = 0
    private var server: ObjectServer?
    private let refusesSecondStart: Bool
    private let refusesEveryStart: Bool

    private init(refusesSecondStart: Bool, refusesEveryStart: Bool) {
        self.refusesSecondStart = refusesSecondStart
        self.refusesEveryStart = refusesEveryStart
    }

    static func serve(
        on connection: BusConnection, refusesSecondStart: Bool, refusesEveryStart: Bool
    ) async throws -> FakeCharacteristic {
        let fake = FakeCharacteristic(
            refusesSecondStart: refusesSecondStart, refusesEveryStart: refusesEveryStart)
        let server = try await ObjectServer.start(connection: connection, root: .root)
        try await server.add(
            path,
            [
                ExportedInterface(
                    BlueZNames.characteristic,
                    properties: ["Value": .bytes([]), "Flags": .strings(["notify"])],
                    methods: senderSessionMethods(
                        start: "StartNotify", stop: "StopNotify",
                        onStart: { sender throws(DBusError) in try await fake.start(sender) },
                        onStop: { sender throws(DBusError) in try await fake.stop(sender) }))
            ])
        await fake.keep(server)
        return fake
    }

    private func keep(_ server: ObjectServer) { self.server = server }

    private func start(_ sender: String) throws(DBusError) {
        if refusesEveryStart { throw DBusError(name: "org.bluez.Error.NotSupported", message: "") }
        if sessions.contains(sender), refusesSecondStart {
            throw DBusError(name: "org.bluez.Error.Failed", message: "Already notifying")
        }
        sessions.insert(sender)
    }

    private func stop(_ sender: String) throws(DBusError) {
        guard sessions.remove(sender) != nil else {
            throw DBusError(name: "org.bluez.Error.Failed", message: "No notify session started")
        }
        stops += 1
    }

    /// A device that disconnected and came back: bluetoothd forgot its notify sessions.
    func forgetSessions() { sessions = [] }

    /// A value from the peer, sent as BlueZ does: a Value change, only while subscribed (a
    /// value nobody would hear is a failure at once, not a wait).
    func notify(_ value: [UInt8]) async throws {
        guard !sessions.isEmpty, let server else { throw Unheard() }
        try await server.set(Self.path, BlueZNames.characteristic, "Value", .bytes(value))
    }

    struct Unheard: Error, CustomStringConvertible {
        var description: String { "no notify session: the value would reach nobody" }
    }
}
