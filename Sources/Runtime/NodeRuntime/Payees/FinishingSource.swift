import NodeKit
import ServiceLifecycle

/// Runs `receive` (an exchange taking payments from `source`) with a child task that finishes
/// `source` when `stop` returns (the node's graceful shutdown, a signal) or when the task is
/// cancelled, so a wait for the next payment always ends; the child ends with `receive`.
func finishing(
    _ source: some PaymentSource,
    when stop: @escaping @Sendable () async throws -> Void = { try await gracefulShutdown() },
    _ receive: () async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            // Cancelled (the group ends below, or the node's services stop): finish too.
            try? await stop()
            await source.finish()
        }
        defer { group.cancelAll() }
        try await receive()
    }
}
