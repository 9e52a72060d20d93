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
        self.names = Set(names.map { $0.lowercased() }.filter { !$0.isEmpty })
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
        if authority.hasPrefix("[") { return true }  // An IPv6 literal.
        let name = (authority.split(separator: ":").first.map(String.init) ?? authority)
            .lowercased()
        if Self.isIPv4(name) || name == "localhost" || name.hasSuffix(".localhost") {
            return true
        }
        // A fully qualified name may end with a dot.
        return names.contains(name.hasSuffix(".") ? String(name.dropLast()) : name)
    }

    private static func isIPv4(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
    }
}

/// Refuses a request whose Host names none of `allowed` (421 Misdirected Request: the name was
/// not this node's), before its token is even looked at; and marks every answer as not to be
/// sniffed or loaded by another origin (`nosniff`, `Cross-Origin-Resource-Policy`), so a web
/// page cannot load `/healthz` or the POS page as a script or an image to learn a node runs.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let allowed: HostAllowList

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            guard allowed.admits(authority: request.head.authority) else {
                throw APIFailure(
                    .misdirectedRequest, code: "unknown-host",
                    reason:
                        "this node does not answer to the name '\(request.head.authority ?? "")': list it in [api] hosts of node.toml, or use an IP address"
                )
            }
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        return response
    }
}
