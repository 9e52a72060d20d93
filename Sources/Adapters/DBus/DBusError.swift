/// A D-Bus failure: an error reply from the peer (its D-Bus error name and text), or a local
/// one (no bus, timed out, disconnected). The name is the stable part to match on.
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public init(_ known: Known, _ message: String) {
        self.init(name: known.rawValue, message: message)
    }

    /// Error names this code acts on.
    public enum Known: String, Sendable {
        case failed = "org.freedesktop.DBus.Error.Failed"
        case noReply = "org.freedesktop.DBus.Error.NoReply"
        case timeout = "org.freedesktop.DBus.Error.Timeout"
        case disconnected = "org.freedesktop.DBus.Error.Disconnected"
        case noServer = "org.freedesktop.DBus.Error.NoServer"
        case fileNotFound = "org.freedesktop.DBus.Error.FileNotFound"
        case accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        case serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        case nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        case unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        case unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        case unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        case unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        case propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        case invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        case notSupported = "org.freedesktop.DBus.Error.NotSupported"
        /// Local: the call was cancelled by its task.
        case cancelled = "tender.DBus.Cancelled"
        /// Local: a reply did not have the types the caller expected.
        case unexpectedReply = "tender.DBus.UnexpectedReply"
    }

    public func `is`(_ known: Known) -> Bool { name == known.rawValue }

    /// The peer (or bus) is not there: no bus socket, or no owner for the name.
    public var meansUnreachable: Bool {
        self.is(.noServer) || self.is(.fileNotFound) || self.is(.serviceUnknown)
            || self.is(.nameHasNoOwner) || self.is(.disconnected)
    }

    public var description: String { message.isEmpty ? name : "\(message) (\(name))" }

    static func unexpected(_ what: String, _ value: DBusValue?) -> DBusError {
        DBusError(.unexpectedReply, "\(what): got \(value.map(\.signature) ?? "nothing")")
    }
}
