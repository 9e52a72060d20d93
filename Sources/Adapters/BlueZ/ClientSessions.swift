import DBus

/// Sessions bluetoothd keeps per D-Bus sender, counted per object for one bus connection: a
/// characteristic's notifications (StartNotify/StopNotify) and an adapter's discovery
/// (StartDiscovery/StopDiscovery). Two users in one process share bluetoothd's one session,
/// so the stop of a user that ended would silence the user that began after it (a payer's
/// next link got no acknowledgements; a next discovery found nothing). Every user asks to
/// start (a session bluetoothd dropped on a disconnect is made again) and only the last one
/// out stops. Calls are made one at a time, in the order asked, so the count and
/// bluetoothd's state never disagree.
actor ClientSessions {
    /// One kind of session: its interface and its start and stop methods.
    struct Kind: Sendable {
        let interface: String
        let start: String
        let stop: String
        /// bluetoothd's answer to a start from a sender that has the session already (some
        /// versions say so rather than answer success).
        let alreadyStarted: @Sendable (DBusError) -> Bool

        static let notify = Kind(
            interface: BlueZNames.characteristic, start: "StartNotify", stop: "StopNotify",
            alreadyStarted: {
                $0.name == "org.bluez.Error.Failed" && $0.message.contains("Already notifying")
            })
        static let discovery = Kind(
            interface: BlueZNames.adapter, start: "StartDiscovery", stop: "StopDiscovery",
            alreadyStarted: {
                $0.name == "org.bluez.Error.InProgress" || $0.name == "org.bluez.Error.Busy"
            })
    }

    private var users: [ObjectPath: Int] = [:]
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []

    /// Users of `path`'s session now (for tests).
    func count(_ path: ObjectPath) -> Int { users[path] ?? 0 }

    /// One more user of `object`'s session: bluetoothd has it started for this connection.
    func begin(_ kind: Kind, on object: RemoteObject) async throws(DBusError) {
        await acquire()
        defer { release() }
        do throws(DBusError) {
            try await object.call(kind.interface, kind.start)
        } catch {
            guard kind.alreadyStarted(error) else { throw error }
        }
        users[object.path, default: 0] += 1
    }

    /// One user of `object`'s session fewer; the last one stops it.
    func end(_ kind: Kind, on object: RemoteObject) async {
        await acquire()
        defer { release() }
        let left = (users[object.path] ?? 1) - 1
        users[object.path] = left > 0 ? left : nil
        guard left <= 0 else { return }
        // The object may be gone already (the peer's service unregistered, the adapter out).
        _ = try? await object.call(kind.interface, kind.stop, timeout: .seconds(5))
    }

    /// Stops `object`'s session now, whoever uses it (a central stops discovering before it
    /// connects), in order with every begin and end; the users stay counted.
    func stopNow(_ kind: Kind, on object: RemoteObject) async {
        await acquire()
        defer { release() }
        _ = try? await object.call(kind.interface, kind.stop, timeout: .seconds(5))
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    private func release() {
        if queue.isEmpty { busy = false } else { queue.removeFirst().resume() }
    }
}
