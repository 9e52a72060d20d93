import CDBus
import Posix

#if canImport(Glibc)
import Glibc
#endif

/// The one owner of a libdbus connection. It lives on its own thread and sleeps in `poll` on
/// the connection's sockets and the mailbox, with a timeout at the next call deadline: no
/// busy polling, and libdbus is only ever touched from this thread.
final class BusLoop {
    private let connection: OpaquePointer
    private let mailbox: Mailbox
    let uniqueName: String

    private var watches: [OpaquePointer] = []
    /// libdbus's own timers (it arms them during authentication), with their next expiry.
    private var timers: [OpaquePointer: Deadline] = [:]
    private var pending: [UInt32: PendingCall] = [:]
    private var serialOfCall: [UInt64: UInt32] = [:]
    private var subscriptions:
        [UInt64: (rule: MatchRule, sink: AsyncStream<Message>.Continuation)] =
            [:]
    private var exports: [ObjectPath: (subtree: Bool, handler: MethodHandler)] = [:]
    /// The handlers running for calls to exported objects, cancelled when the connection
    /// closes (nobody is left to answer).
    private var serving: [UInt64: Task<Void, Never>] = [:]
    private var nextServing: UInt64 = 0
    private var running = true
    private var closers: [CheckedContinuation<Void, Never>] = []

    private struct PendingCall {
        let id: UInt64
        let member: String
        let timeout: Duration
        let deadline: Deadline
        let continuation: ReplyContinuation
    }

    /// Opens the connection on a new thread and runs it there; returns the unique name the
    /// bus gave it.
    static func start(address: String, mailbox: Mailbox) async throws(DBusError) -> String {
        let opened = await withCheckedContinuation {
            (ready: CheckedContinuation<Result<String, DBusError>, Never>) in
            let started = spawnDetachedThread {
                do throws(DBusError) {
                    let loop = try BusLoop(address: address, mailbox: mailbox)
                    ready.resume(returning: .success(loop.uniqueName))
                    loop.run()
                } catch {
                    for command in mailbox.close() { command.fail(error) }
                    ready.resume(returning: .failure(error))
                }
            }
            if !started {
                ready.resume(returning: .failure(DBusError(.failed, "could not start a thread")))
            }
        }
        return try opened.get()
    }

    private init(address: String, mailbox: Mailbox) throws(DBusError) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw BusLoop.take(&error, context: "cannot connect to the D-Bus bus at \(address)")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw BusLoop.take(&error, context: "the bus at \(address) did not accept us")
        }
        self.connection = connection
        self.mailbox = mailbox
        self.uniqueName = String(cString: dbus_bus_get_unique_name(connection))
    }

    private static func take(_ error: inout CDBus.DBusError, context: String) -> DBusError {
        defer { dbus_error_free(&error) }
        let name = error.name.map { String(cString: $0) } ?? DBusError.Known.failed.rawValue
        let text = error.message.map { String(cString: $0) } ?? ""
        return DBusError(name: name, message: "\(context): \(text)")
    }

    // MARK: - The loop

    private func run() {
        installCallbacks()
        while running {
            dispatchIncoming()
            guard running else { break }
            var descriptors = [
                pollfd(fd: mailbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)
            ]
            let active = watches.filter { dbus_watch_get_enabled($0) != 0 }
            for watch in active {
                let flags = dbus_watch_get_flags(watch)
                var events: Int16 = 0
                if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
                if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
                descriptors.append(
                    pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), nextTimeout())
            if ready < 0 && errno != EINTR { break }
            if descriptors[0].revents != 0 {
                for command in mailbox.take() { perform(command) }
            }
            for (index, watch) in active.enumerated() where descriptors[index + 1].revents != 0 {
                guard watches.contains(watch) else { continue }
                dbus_watch_handle(watch, watchFlags(descriptors[index + 1].revents))
            }
            fireDueTimers()
            expireCalls()
            if dbus_connection_get_is_connected(connection) == 0 { running = false }
        }
        shutDown()
    }

    private func dispatchIncoming() {
        while dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS {
            dbus_connection_dispatch(connection)
        }
    }

    private func watchFlags(_ events: Int16) -> UInt32 {
        var flags: UInt32 = 0
        if events & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if events & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if events & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        if events & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        return flags
    }

    private func nextTimeout() -> Int32 {
        let deadlines = pending.values.map(\.deadline) + timers.values
        guard let first = deadlines.min() else { return -1 }
        return first.remaining
    }

    private func fireDueTimers() {
        for (timer, deadline) in timers where deadline.hasPassed {
            timers[timer] = .after(.milliseconds(Int(dbus_timeout_get_interval(timer))))
            dbus_timeout_handle(timer)
        }
    }

    private func expireCalls() {
        for (serial, call) in pending where call.deadline.hasPassed {
            pending[serial] = nil
            serialOfCall[call.id] = nil
            call.continuation.resume(
                returning: .failure(
                    DBusError(.noReply, "no reply to \(call.member) within \(call.timeout)")))
        }
    }

    private func shutDown() {
        let gone = DBusError(.disconnected, "the D-Bus connection is closed")
        for call in pending.values { call.continuation.resume(returning: .failure(gone)) }
        pending = [:]
        for subscription in subscriptions.values { subscription.sink.finish() }
        subscriptions = [:]
        exports = [:]
        for task in serving.values { task.cancel() }
        serving = [:]
        for command in mailbox.close() {
            if case .close(let continuation?) = command { closers.append(continuation) }
            command.fail(gone)
        }
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        for closer in closers { closer.resume() }
    }

    // MARK: - Commands from tasks

    private func perform(_ command: Command) {
        switch command {
        case .send(let message):
            send(message)
        case .call(let message, let timeout, let id, let continuation):
            guard let serial = send(message) else {
                continuation.resume(
                    returning: .failure(
                        DBusError(.failed, "could not queue \(message.member ?? "")")))
                return
            }
            pending[serial] = PendingCall(
                id: id, member: message.member ?? "", timeout: timeout,
                deadline: .after(timeout), continuation: continuation)
            serialOfCall[id] = serial
        case .cancelCall(let id):
            guard let serial = serialOfCall.removeValue(forKey: id),
                let call = pending.removeValue(forKey: serial)
            else { return }
            call.continuation.resume(
                returning: .failure(DBusError(.cancelled, "\(call.member) was cancelled")))
        case .subscribe(let id, let rule, let sink):
            subscriptions[id] = (rule, sink)
        case .unsubscribe(let id):
            subscriptions.removeValue(forKey: id)?.sink.finish()
        case .export(let path, let subtree, let handler):
            exports[path] = (subtree, handler)
        case .unexport(let path):
            exports[path] = nil
        case .close(let continuation):
            running = false
            if let continuation { closers.append(continuation) }
        case .served(let id, let reply):
            serving[id] = nil
            if let reply { send(reply) }
        }
    }

    /// Queues `message`; its serial, or nil when libdbus could not take it.
    @discardableResult
    private func send(_ message: Message) -> UInt32? {
        guard let raw = try? MessageCoding.encode(message) else { return nil }
        defer { dbus_message_unref(raw) }
        var serial: UInt32 = 0
        return dbus_connection_send(connection, raw, &serial) != 0 ? serial : nil
    }

    // MARK: - Messages from the bus

    fileprivate func receive(_ raw: OpaquePointer) {
        let message = MessageCoding.decode(raw)
        switch message.kind {
        case .methodReturn, .error:
            guard let call = pending.removeValue(forKey: message.replySerial) else { return }
            serialOfCall[call.id] = nil
            if message.kind == .error {
                let name = message.errorName ?? DBusError.Known.failed.rawValue
                call.continuation.resume(
                    returning: .failure(
                        DBusError(name: name, message: message.body.first?.string ?? "")))
            } else {
                call.continuation.resume(returning: .success(message))
            }
        case .signal:
            if message.interface == "org.freedesktop.DBus.Local" && message.member == "Disconnected"
            {
                running = false
                return
            }
            for subscription in subscriptions.values where subscription.rule.matches(message) {
                subscription.sink.yield(message)
            }
        case .methodCall:
            serve(message)
        }
    }

    /// Runs the handler of the object the call is for, in a task this loop keeps until the
    /// reply comes back through the mailbox.
    private func serve(_ call: Message) {
        guard let handler = handler(for: call.path) else {
            reply(
                to: call,
                .failure(DBusError(.unknownObject, "no object at \(call.path?.rawValue ?? "")")))
            return
        }
        let mailbox = self.mailbox
        let id = nextServing
        nextServing += 1
        serving[id] = Task {
            let result: Result<[DBusValue], DBusError>
            do throws(DBusError) { result = .success(try await handler(call)) } catch {
                result = .failure(error)
            }
            mailbox.post(
                .served(
                    id: id,
                    reply: call.noReplyExpected ? nil : BusLoop.replyMessage(to: call, result)))
        }
    }

    private func handler(for path: ObjectPath?) -> MethodHandler? {
        guard let path else { return nil }
        if let export = exports[path] { return export.handler }
        return exports.filter { $0.value.subtree && path.isDescendant(of: $0.key) }
            .max { $0.key.rawValue.count < $1.key.rawValue.count }?.value.handler
    }

    private func reply(to call: Message, _ result: Result<[DBusValue], DBusError>) {
        guard !call.noReplyExpected else { return }
        send(BusLoop.replyMessage(to: call, result))
    }

    /// The method return (or error) for `call`; a body that cannot be sent becomes an error.
    static func replyMessage(to call: Message, _ result: Result<[DBusValue], DBusError>) -> Message
    {
        var reply: Message
        switch result {
        case .success(let body):
            reply = Message(kind: .methodReturn, destination: call.sender, body: body)
            do throws(DBusError) { try MessageCoding.check(reply) } catch {
                return replyMessage(to: call, .failure(DBusError(.failed, "bad reply: \(error)")))
            }
        case .failure(let error):
            let name =
                MessageCoding.isValidErrorName(error.name)
                ? error.name : DBusError.Known.failed.rawValue
            reply = Message(
                kind: .error, errorName: name, destination: call.sender,
                body: [
                    .string(String(decoding: error.message.utf8.filter { $0 != 0 }, as: UTF8.self))
                ])
        }
        reply.replySerial = call.serial
        return reply
    }

    // MARK: - libdbus callbacks (called on this thread, from inside libdbus calls)

    private func installCallbacks() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            connection,
            { watch, context in
                BusLoop.from(context).watches.append(watch!)
                return 1
            },
            { watch, context in BusLoop.from(context).watches.removeAll { $0 == watch } },
            { _, _ in },  // enabled state is read at each poll
            context, nil)
        dbus_connection_set_timeout_functions(
            connection,
            { timer, context in
                BusLoop.from(context).arm(timer!)
                return 1
            },
            { timer, context in BusLoop.from(context).timers[timer!] = nil },
            { timer, context in BusLoop.from(context).arm(timer!) },
            context, nil)
        dbus_connection_add_filter(
            connection,
            { _, message, context in
                BusLoop.from(context).receive(message!)
                return DBUS_HANDLER_RESULT_HANDLED
            }, context, nil)
    }

    private func arm(_ timer: OpaquePointer) {
        timers[timer] =
            dbus_timeout_get_enabled(timer) != 0
            ? .after(.milliseconds(Int(dbus_timeout_get_interval(timer)))) : nil
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> BusLoop {
        Unmanaged<BusLoop>.fromOpaque(context!).takeUnretainedValue()
    }
}
