/// A D-Bus message as plain values: what the connection's owner thread decoded, or what it
/// will encode. libdbus's own message objects never leave that thread.
public struct Message: Sendable {
    public enum Kind: Sendable, Equatable {
        case methodCall
        case methodReturn
        case error
        case signal
    }

    public var kind: Kind
    public var path: ObjectPath?
    public var interface: String?
    public var member: String?
    public var errorName: String?
    public var destination: String?
    public var sender: String?
    /// Set by the bus on messages received; ignored on messages sent.
    public var serial: UInt32 = 0
    public var replySerial: UInt32 = 0
    /// A method call whose caller wants no reply.
    public var noReplyExpected = false
    public var body: [DBusValue]

    public init(
        kind: Kind, path: ObjectPath? = nil, interface: String? = nil, member: String? = nil,
        errorName: String? = nil, destination: String? = nil, body: [DBusValue] = []
    ) {
        self.kind = kind
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.destination = destination
        self.body = body
    }

    public static func methodCall(
        destination: String?, path: ObjectPath, interface: String, member: String,
        _ body: [DBusValue] = []
    ) -> Message {
        Message(
            kind: .methodCall, path: path, interface: interface, member: member,
            destination: destination, body: body)
    }

    public static func signal(
        path: ObjectPath, interface: String, member: String, _ body: [DBusValue] = []
    ) -> Message {
        Message(kind: .signal, path: path, interface: interface, member: member, body: body)
    }

    /// The body's signature, e.g. "sa{sv}as".
    public var signature: String { body.map(\.signature).joined() }

    /// The first argument, or a type error naming the method.
    public func argument(_ index: Int) throws(DBusError) -> DBusValue {
        guard index < body.count else {
            throw DBusError(
                .invalidArgs,
                "\(member ?? "message") has \(body.count) arguments, wanted at least \(index + 1)")
        }
        return body[index]
    }
}
