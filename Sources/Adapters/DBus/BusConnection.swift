import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A connection to a D-Bus bus (the system bus, or any address), usable from any task.
///
/// libdbus's connection is owned by one thread (`BusLoop`); this type only posts work to it
/// and awaits the answers. Calls time out and end when their task is cancelled; signals
/// arrive as async streams; exported objects answer method calls from tasks.
public final class BusConnection: Sendable {
    private let mailbox: Mailbox
    private let ids = Atomic<UInt64>(1)
    /// The unique name the bus gave this connection (e.g. ":1.42").
    public let uniqueName: String

    /// The address the system bus listens on: `DBUS_SYSTEM_BUS_ADDRESS`, or the standard socket.
    public static var systemBusAddress: String {
        environment("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/run/dbus/system_bus_socket"
    }

    /// Connects to the bus at `address` (D-Bus address syntax, e.g. "unix:path=/run/x").
    public static func connect(to address: String) async throws(DBusError) -> BusConnection {
        let mailbox = try Mailbox()
        let name = try await BusLoop.start(address: address, mailbox: mailbox)
        return BusConnection(mailbox: mailbox, uniqueName: name)
    }

    public static func system() async throws(DBusError) -> BusConnection {
        try await connect(to: systemBusAddress)
    }

    private init(mailbox: Mailbox, uniqueName: String) {
        self.mailbox = mailbox
        self.uniqueName = uniqueName
    }

    deinit { mailbox.post(.close(nil)) }

    /// Closes the connection: pending calls fail, signal streams end, exports stop answering.
    public func close() async {
        await withCheckedContinuation { continuation in
            if !mailbox.post(.close(continuation)) { continuation.resume() }
        }
    }

    private func nextID() -> UInt64 { ids.wrappingAdd(1, ordering: .relaxed).oldValue }

    private static let gone = DBusError(.disconnected, "the D-Bus connection is closed")

    // MARK: - Calls

    /// Calls a method and returns its reply; an error reply is thrown as `DBusError` with the
    /// peer's error name. Gives up after `timeout`, or when the task is cancelled.
    @discardableResult
    public func call(
        _ message: Message, timeout: Duration = .seconds(25)
    ) async throws(DBusError)
        -> Message
    {
        try MessageCoding.check(message)
        let id = nextID()
        let gate = CallGate()
        let mailbox = self.mailbox
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: ReplyContinuation) in
                switch gate.post({
                    mailbox.post(.call(message, timeout: timeout, id: id, continuation))
                }) {
                case .posted: break
                case .cancelled:
                    continuation.resume(
                        returning: .failure(
                            DBusError(.cancelled, "\(message.member ?? "") was cancelled")))
                case .closed: continuation.resume(returning: .failure(BusConnection.gone))
                }
            }
        } onCancel: {
            gate.cancel { mailbox.post(.cancelCall(id: id)) }
        }
        return try result.get()
    }

    /// Calls `member` and returns the reply's arguments.
    @discardableResult
    public func call(
        _ destination: String, _ path: ObjectPath, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws(DBusError) -> [DBusValue] {
        try await call(
            .methodCall(
                destination: destination, path: path, interface: interface, member: member,
                arguments),
            timeout: timeout
        ).body
    }

    /// Sends a message that wants no reply: a signal, or a call marked no-reply.
    public func send(_ message: Message) throws(DBusError) {
        try MessageCoding.check(message)
        guard mailbox.post(.send(message)) else { throw BusConnection.gone }
    }

    /// Emits a signal from one of this connection's objects.
    public func emit(
        _ path: ObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue]
    ) throws(DBusError) {
        try send(.signal(path: path, interface: interface, member: member, arguments))
    }

    // MARK: - Signals

    /// The signals `rule` selects, from now until the stream is dropped or the connection
    /// closes. At most `buffer` undelivered signals are kept (the oldest are dropped).
    public func signals(
        _ rule: MatchRule, buffer: Int = 4096
    ) async throws(DBusError)
        -> AsyncStream<Message>
    {
        let id = nextID()
        let (stream, sink) = AsyncStream.makeStream(
            of: Message.self, bufferingPolicy: .bufferingNewest(buffer))
        guard mailbox.post(.subscribe(id: id, rule, sink)) else { throw BusConnection.gone }
        let mailbox = self.mailbox
        let removeMatch = {
            var message = Message.methodCall(
                destination: Bus.name, path: Bus.path, interface: Bus.interface,
                member: "RemoveMatch", [.string(rule.text)])
            message.noReplyExpected = true
            return message
        }()
        sink.onTermination = { _ in
            mailbox.post(.unsubscribe(id: id))
            mailbox.post(.send(removeMatch))
        }
        do {
            try await call(Bus.name, Bus.path, Bus.interface, "AddMatch", [.string(rule.text)])
        } catch {
            sink.finish()
            throw error
        }
        return stream
    }

    // MARK: - Exported objects

    /// Answers method calls to `path` (and, with `subtree`, to every path below it) with
    /// `handler`, until the returned registration is cancelled or dropped.
    public func export(
        _ path: ObjectPath, subtree: Bool = false, _ handler: @escaping MethodHandler
    ) throws(DBusError) -> Registration {
        guard mailbox.post(.export(path, subtree: subtree, handler)) else {
            throw BusConnection.gone
        }
        let mailbox = self.mailbox
        return Registration { mailbox.post(.unexport(path)) }
    }

    // MARK: - The bus itself

    /// Asks for a well-known name; throws when another connection owns it.
    public func requestName(_ name: String) async throws(DBusError) {
        // Flag 4: do not queue behind the current owner.
        let reply = try await call(
            Bus.name, Bus.path, Bus.interface, "RequestName", [.string(name), .uint32(4)])
        guard reply.first?.uint32 == 1 || reply.first?.uint32 == 4 else {
            throw DBusError(.failed, "the name \(name) is owned by another connection")
        }
    }

    /// The unique name that owns `name` now, or nil when nobody does.
    public func owner(of name: String) async throws(DBusError) -> String? {
        do {
            return try await call(
                Bus.name, Bus.path, Bus.interface, "GetNameOwner", [.string(name)]
            )
            .first?.string
        } catch  where error.is(.nameHasNoOwner) {
            return nil
        }
    }
}

/// The bus daemon's own object.
enum Bus {
    static let name = "org.freedesktop.DBus"
    static let path = ObjectPath(checked: "/org/freedesktop/DBus")
    static let interface = "org.freedesktop.DBus"
}

/// Something registered on a connection (an exported object, a registration with a service);
/// undone by `cancel()` or when the last reference goes. An undo that is a call itself can be
/// awaited with `cancelAndWait()`, so what replaces the registration does not race it.
public final class Registration: Sendable {
    private let undo: Mutex<(@Sendable () -> Void)?>
    private let asyncUndo: Mutex<(@Sendable () async -> Void)?>

    public init(_ undo: @escaping @Sendable () -> Void) {
        self.undo = Mutex(undo)
        self.asyncUndo = Mutex(nil)
    }

    public init(undoing undo: @escaping @Sendable () async -> Void) {
        self.undo = Mutex(nil)
        self.asyncUndo = Mutex(undo)
    }

    public func cancel() {
        let (action, asyncAction) = take()
        action?()
        if let asyncAction { Task { await asyncAction() } }
    }

    /// Undoes the registration and returns once it is undone.
    public func cancelAndWait() async {
        let (action, asyncAction) = take()
        action?()
        await asyncAction?()
    }

    private func take() -> ((@Sendable () -> Void)?, (@Sendable () async -> Void)?) {
        let action = undo.withLock { action in
            defer { action = nil }
            return action
        }
        let asyncAction = asyncUndo.withLock { action in
            defer { action = nil }
            return action
        }
        return (action, asyncAction)
    }

    deinit { cancel() }
}

/// Orders a call's posting against its cancellation, so a cancel never overtakes the call
/// it cancels in the mailbox.
private final class CallGate: Sendable {
    enum Posting { case posted, cancelled, closed }
    private let state = Mutex<(posted: Bool, cancelled: Bool)>((false, false))

    func post(_ post: () -> Bool) -> Posting {
        state.withLock { state in
            if state.cancelled { return .cancelled }
            guard post() else { return .closed }
            state.posted = true
            return .posted
        }
    }

    func cancel(_ post: () -> Void) {
        state.withLock { state in
            state.cancelled = true
            if state.posted { post() }
        }
    }
}

private func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}
