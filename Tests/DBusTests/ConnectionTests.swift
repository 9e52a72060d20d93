import BusTestSupport
import DBus
import Foundation
import Testing

@Suite struct ConnectionTests {
    let path = ObjectPath(checked: "/test")

    /// A server whose object at `path` never answers within a test, and a client; `arrived`
    /// yields each time a call reaches the server (so a test acts on a call in flight, not on
    /// a guess of how long sending takes).
    func silentServer(
        on bus: PrivateBus
    ) async throws -> (BusConnection, BusConnection, Registration, arrived: AsyncStream<Void>) {
        let server = try await bus.connect()
        let client = try await bus.connect()
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let export = try server.export(path) { _ in
            arrival.yield()
            try? await Task.sleep(for: .seconds(30))
            return []
        }
        return (server, client, export, arrived)
    }

    @Test func signalsArriveOnlyWhereTheRuleSelectsThem() async throws {
        let bus = try PrivateBus()
        let emitter = try await bus.connect()
        let listener = try await bus.connect()
        let stream = try await listener.signals(
            MatchRule(interface: "org.example.Signals", member: "Changed", arg0: "wanted"))
        try emitter.emit(path, "org.example.Signals", "Changed", [.string("other"), .int32(1)])
        try emitter.emit(path, "org.example.Signals", "Other", [.string("wanted"), .int32(2)])
        try emitter.emit(path, "org.example.Signals", "Changed", [.string("wanted"), .int32(3)])
        var iterator = stream.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.body == [.string("wanted"), .int32(3)])
        #expect(first.sender == emitter.uniqueName)
        #expect(first.path == path)
    }

    @Test func aPathNamespaceSelectsEverythingBelowIt() async throws {
        let bus = try PrivateBus()
        let emitter = try await bus.connect()
        let listener = try await bus.connect()
        let stream = try await listener.signals(
            MatchRule(pathNamespace: ObjectPath(checked: "/org/bluez/hci0")))
        try emitter.emit(ObjectPath(checked: "/org/bluez/hci1"), "org.example.S", "S", [.int32(0)])
        try emitter.emit(
            ObjectPath(checked: "/org/bluez/hci0/dev_1"), "org.example.S", "S", [.int32(1)])
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next()?.body == [.int32(1)])
    }

    @Test func aCallWithoutAnswerTimesOut() async throws {
        let bus = try PrivateBus()
        let (server, client, export, _) = try await silentServer(on: bus)
        do {
            try await client.call(
                server.uniqueName, path, "org.example.Slow", "Wait", timeout: .milliseconds(200))
            Issue.record("a call nobody answers returned")
        } catch {
            #expect(error.is(.noReply))
            #expect(error.message.contains("Wait"))
        }
        export.cancel()
    }

    @Test func cancellingTheTaskEndsTheCall() async throws {
        let bus = try PrivateBus()
        let (server, client, export, arrived) = try await silentServer(on: bus)
        let task = Task { () throws(DBusError) -> [DBusValue] in
            try await client.call(server.uniqueName, path, "org.example.Slow", "Wait")
        }
        var calls = arrived.makeAsyncIterator()
        await calls.next()  // the call is at the server, waiting for its answer
        task.cancel()
        let result = await task.result
        #expect(throws: DBusError(.cancelled, "Wait was cancelled")) { try result.get() }
        export.cancel()
    }

    @Test func errorsCarryThePeersNameAndText() async throws {
        let bus = try PrivateBus()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let export = try server.export(path) { _ throws(DBusError) in
            throw DBusError(name: "org.bluez.Error.NotPermitted", message: "Write not permitted")
        }
        await #expect(
            throws: DBusError(name: "org.bluez.Error.NotPermitted", message: "Write not permitted")
        ) {
            try await client.call(
                server.uniqueName, path, "org.bluez.GattCharacteristic1", "WriteValue")
        }
        do {
            try await client.call(
                server.uniqueName, ObjectPath(checked: "/nothing"), "org.example.X", "M")
            Issue.record("a call to no object returned")
        } catch { #expect(error.is(.unknownObject)) }
        do {
            try await client.call("org.example.NobodyOwnsThis", path, "org.example.X", "M")
            Issue.record("a call to a name nobody owns returned")
        } catch {
            #expect(error.is(.serviceUnknown))
            #expect(error.meansUnreachable)
        }
        export.cancel()
    }

    @Test func theBusPolicyRefusalIsAccessDenied() async throws {
        let bus = try PrivateBus()
        let server = try await bus.connect()
        let client = try await bus.connect()
        try await server.requestName("org.example.Guarded")
        let export = try server.export(path) { _ in [] }
        try await client.call("org.example.Guarded", path, "org.example.Open", "M")
        do {
            try await client.call("org.example.Guarded", path, "org.example.Secret", "M")
            Issue.record("the policy let a denied call through")
        } catch { #expect(error.is(.accessDenied)) }
        export.cancel()
    }

    @Test func noBusIsAClearError() async throws {
        let folder = try PrivateBus().folder
        do {
            _ = try await BusConnection.connect(to: "unix:path=\(folder.file("no-such-socket"))")
            Issue.record("connected to a socket that does not exist")
        } catch {
            #expect(error.meansUnreachable)
            #expect(error.message.contains("no-such-socket"))
        }
    }

    @Test func whenTheBusGoesEverythingWaitingEnds() async throws {
        let bus = try PrivateBus()
        let (server, client, export, arrived) = try await silentServer(on: bus)
        let stream = try await client.signals(MatchRule(interface: "org.example.Never"))
        let call = Task { () throws(DBusError) -> [DBusValue] in
            try await client.call(server.uniqueName, path, "org.example.Slow", "Wait")
        }
        var calls = arrived.makeAsyncIterator()
        await calls.next()  // the call is at the server, waiting for its answer
        bus.stop()
        await #expect(throws: DBusError.self) { try await call.result.get() }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        do {
            try await client.call(server.uniqueName, path, "org.example.Slow", "Wait")
            Issue.record("a call on a closed connection returned")
        } catch { #expect(error.is(.disconnected)) }
        export.cancel()
    }

    @Test func manyConcurrentCallsEachGetTheirOwnReply() async throws {
        let bus = try PrivateBus()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let export = try server.export(path) { call in
            guard case .uint32(let number)? = call.body.first else { return [] }
            return [.uint32(number * 2)]
        }
        let answers = try await withThrowingTaskGroup(of: (UInt32, UInt32?).self) { group in
            // The daemon allows 128 pending replies per connection by default.
            for number in UInt32(0)..<100 {
                group.addTask {
                    let reply = try await client.call(
                        server.uniqueName, path, "org.example.Double", "Double", [.uint32(number)])
                    return (number, reply.first?.uint32)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 100)
        #expect(answers.allSatisfy { $0.value == $0.key * 2 })
        export.cancel()
    }

    @Test func aCancelledRegistrationStopsAnswering() async throws {
        let bus = try PrivateBus()
        let server = try await bus.connect()
        let client = try await bus.connect()
        let export = try server.export(path) { _ in [.boolean(true)] }
        #expect(
            try await client.call(server.uniqueName, path, "org.example.X", "M") == [.boolean(true)]
        )
        export.cancel()
        do {
            try await client.call(server.uniqueName, path, "org.example.X", "M")
            Issue.record("an unexported object answered")
        } catch { #expect(error.is(.unknownObject)) }
    }
}
