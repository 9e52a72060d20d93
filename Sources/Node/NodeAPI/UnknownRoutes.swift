import Hummingbird

/// A path no endpoint answers (or not with that method: the router says 404 for both) gets
/// the API's JSON error too (`not-found`, naming what was asked), not an empty 404: a client
/// reads every failure the same way.
struct UnknownRoutes<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            throw APIFailure(
                .notFound, code: "not-found",
                reason:
                    "no endpoint answers \(request.method) \(request.uri.path) (Docs/OPERATIONS.md lists the endpoints and their methods)"
            )
        }
    }
}
