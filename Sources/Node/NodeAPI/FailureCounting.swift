import Hummingbird

/// Counts the requests answered with an error status into the node's metrics, whether a
/// handler threw it or returned it.
struct FailureCounting<Context: RequestContext>: RouterMiddleware {
    let metrics: NodeMetrics

    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            let response = try await next(request, context)
            if response.status.code >= 400 {
                metrics.apiRequestFailed(status: response.status.code)
            }
            return response
        } catch let error as any HTTPResponseError {
            metrics.apiRequestFailed(status: error.status.code)
            throw error
        } catch {
            metrics.apiRequestFailed(status: 500)
            throw error
        }
    }
}
