/// Which signals a subscription wants: the bus daemon's match rule (sent with AddMatch, so the
/// daemon routes them to us) and the same test applied locally to route them to subscribers.
public struct MatchRule: Sendable, Hashable {
    /// A well-known name (the daemon resolves it) or a unique name (also checked locally).
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: ObjectPath?
    /// The path or anything below it.
    public var pathNamespace: ObjectPath?
    /// The first argument, when it is a string (e.g. the interface of PropertiesChanged).
    public var arg0: String?

    public init(
        sender: String? = nil, interface: String? = nil, member: String? = nil,
        path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
    }

    /// The rule in the daemon's syntax.
    public var text: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            // A quote inside a value is written as '\'' (close, escaped quote, reopen).
            if let value {
                parts.append(
                    "\(key)='"
                        + value.split(separator: "'", omittingEmptySubsequences: false).joined(
                            separator: "'\\''") + "'")
            }
        }
        add("sender", sender)
        add("interface", interface)
        add("member", member)
        add("path", path?.rawValue)
        // The daemon refuses path_namespace='/' but "/" means every path anyway.
        add("path_namespace", pathNamespace.flatMap { $0 == .root ? nil : $0.rawValue })
        add("arg0", arg0)
        return parts.joined(separator: ",")
    }

    /// Whether `message` is a signal this rule selects. A well-known sender name is left to
    /// the daemon: signals carry the sender's unique name.
    func matches(_ message: Message) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender, sender.hasPrefix(":"), message.sender != sender { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace, !(message.path?.isDescendant(of: pathNamespace) ?? false) {
            return false
        }
        if let arg0, message.body.first?.string != arg0 { return false }
        return true
    }
}
