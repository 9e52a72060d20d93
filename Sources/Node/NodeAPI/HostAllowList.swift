import HTTPTypes
import Hummingbird

/// The names a request's Host may carry: a defence against DNS rebinding, where a web page
/// makes its own name resolve to the node's address and reads the API as same-origin. A
/// rebinding needs a name, so IP literals always pass, and so do `localhost` (and any
/// `*.localhost`, which resolves to loopback only) and the names given: the machine's own
/// (`name`, `name.local`) and `[api] hosts` in node.toml. A request without a Host (HTTP/1.0,
/// a script on a Unix socket) is not a browser's and passes. On a Unix socket every name
/// passes: no browser reaches it but through a proxy, whose own server names are the check.
public struct HostAllowList: Sendable, Equatable {
    public let names: Set<String>
    public let admitsAnyName: Bool

    public init(_ names: [String] = []) {
        // As a Host is read: lower case, without a final dot (`till.example.` is a name too).
        self.names = Set(
            names.map { $0.lowercased() }.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
                .filter { !$0.isEmpty })
        admitsAnyName = false
    }

    private init(anyName: Void) {
        names = []
        admitsAnyName = true
    }

    /// Every name: for an API on a Unix socket.
    public static let anyName = HostAllowList(anyName: ())

    /// `hosts`, with the machine's hostname and its mDNS `.local` name.
    public static func forMachine(_ hostname: String?, adding hosts: [String]) -> HostAllowList {
        let own = hostname.map { [$0, $0 + ".local"] } ?? []
        return HostAllowList(own + hosts)
    }

    public func admits(authority: String?) -> Bool {
        guard !admitsAnyName, let authority, !authority.isEmpty else { return true }
        guard let host = Self.host(of: authority) else { return false }
        if host.hasPrefix("[") || Self.isIPv4(host) || host == "localhost"
            || host.hasSuffix(".localhost")
        {
            return true
        }
        return names.contains(host)
    }

    /// The host of `authority` (`HOST[:PORT]`), lower case, without a final dot; nil when it
    /// is no authority: a port that is not digits, an IPv6 literal with anything but hex
    /// digits, colons and dots in its brackets, or anything after them but a port.
    static func host(of authority: String) -> String? {
        var host: Substring
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let inside = authority[authority.index(after: authority.startIndex)..<close]
            guard !inside.isEmpty,
                inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                port = rest.dropFirst()
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCII),
                port.allSatisfy(\.isNumber)
            else { return nil }
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty,
            host.allSatisfy({
                $0.isASCII && ($0.isLetter || $0.isNumber || "-.[]:".contains($0))
            })
        else { return nil }
        return host.lowercased()
    }

    private static func isIPv4(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
    }
}

/// Refuses a request whose Host names none of `allowed` (421 Misdirected Request: the name was
/// not this node's), and one with two Host fields (400, RFC 9112 §3.2: which one a proxy
/// in front believed is anyone's guess), before its token is even looked at.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let allowed: HostAllowList

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // The HTTP/1 codec takes the first Host as the authority; any other stays a field.
        guard request.headers[values: HTTPField.Name("Host")!].isEmpty else {
            throw APIFailure.badRequest("a request carries one Host field, this one more")
        }
        guard allowed.admits(authority: request.head.authority) else {
            throw APIFailure(
                .misdirectedRequest, code: "unknown-host",
                reason:
                    "this node does not answer to the name '\(request.head.authority ?? "")': list it in [api] hosts of node.toml, or use an IP address"
            )
        }
        return try await next(request, context)
    }
}
