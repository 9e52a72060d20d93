import Hummingbird
import Tender

/// Lets a request through only with `Authorization: Bearer <token>` naming the node's token
/// (read from its 0600 token file): 401 otherwise, with the reason. The comparison takes the
/// same time wherever the first wrong byte is.
struct TokenAuthentication<Context: RequestContext>: RouterMiddleware {
    let token: [UInt8]

    init(token: String) { self.token = Array(token.utf8) }

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw APIFailure.unauthorized(
                "no Authorization header (Bearer token from the node's api-token file)")
        }
        // The scheme is case-insensitive (RFC 9110 §11.1); the token is not.
        let scheme = header.utf8.prefix(7)
        guard scheme.count == 7, String(decoding: scheme, as: UTF8.self).lowercased() == "bearer "
        else {
            throw APIFailure.unauthorized("not a Bearer token (Authorization: Bearer TOKEN)")
        }
        guard constantTimeEqual(header.utf8.dropFirst(7), token) else {
            throw APIFailure.unauthorized("wrong token")
        }
        return try await next(request, context)
    }
}
