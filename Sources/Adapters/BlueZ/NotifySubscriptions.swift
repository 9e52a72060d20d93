import DBus

/// StartNotify and StopNotify for one bus connection, counted per characteristic. BlueZ keeps
/// one notify session per D-Bus sender and characteristic, so two subscribers in one process
/// share it: the StopNotify of a link that ended would silence the link opened after it (a
/// payer's next link to the same payee got no acknowledgements). Every subscriber asks BlueZ
/// to notify (a session BlueZ dropped on a disconnect is made again) and only the last one
/// out stops it. Calls are made one at a time, in the order asked, so the count and BlueZ's
/// state never disagree.
actor NotifySubscriptions {
    private var subscribers: [ObjectPath: Int] = [:]
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []

    /// Subscribers of `path` now (for tests).
    func count(_ path: ObjectPath) -> Int { subscribers[path] ?? 0 }

    /// One more subscriber of `characteristic`: BlueZ notifies this connection.
    func subscribe(_ characteristic: RemoteObject) async throws(DBusError) {
        await acquire()
        defer { release() }
        do throws(DBusError) {
            try await characteristic.call(BlueZNames.characteristic, "StartNotify")
        } catch {
            // Older BlueZ refuses a second StartNotify from one sender; the session is there.
            guard error.isAlreadyNotifying else { throw error }
        }
        subscribers[characteristic.path, default: 0] += 1
    }

    /// One subscriber of `characteristic` fewer; the last one stops BlueZ's notifications.
    func unsubscribe(_ characteristic: RemoteObject) async {
        await acquire()
        defer { release() }
        let left = (subscribers[characteristic.path] ?? 1) - 1
        subscribers[characteristic.path] = left > 0 ? left : nil
        guard left <= 0 else { return }
        // The characteristic may be gone already (the payee's service unregistered).
        _ = try? await characteristic.call(BlueZNames.characteristic, "StopNotify")
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

extension DBusError {
    /// BlueZ's answer to StartNotify from a sender that already has a notify session (BlueZ
    /// before 5.65 says so; later versions answer success).
    fileprivate var isAlreadyNotifying: Bool {
        name == "org.bluez.Error.Failed" && message.contains("Already notifying")
    }
}
