import NodeKit
import Settlement
import Tender

/// The node's sync loop: a pass over every chain the node holds coins on every `interval`,
/// or at once when asked (`passNow`). Passes never overlap: one asked for during a pass is
/// the next one. What each pass did goes to `report`; the engine's events to `events`.
public actor SettlementLoop {
    /// What one pass did, over every chain.
    public struct Outcome: Sendable, Equatable {
        /// Redeem transactions still open after the pass, over every chain.
        public let open: Int
        /// What kept each chain that did not settle from it (none: every chain settled or
        /// had nothing).
        public let failures: [Failure]

        public init(open: Int, failures: [Failure] = []) {
            self.open = open
            self.failures = failures
        }

        /// The failures in one line (nil when there were none), for the status and the log.
        public var failure: String? {
            failures.isEmpty ? nil : failures.map(\.description).joined(separator: "; ")
        }
    }

    /// One domain's settlement that failed in a pass, or the pass itself (no domain: the
    /// wallets or the registry could not be read).
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        public let domain: Domain?
        /// The error's own sentence.
        public let reason: String

        public init(domain: Domain?, reason: String) {
            self.domain = domain
            self.reason = reason
        }

        public var description: String {
            domain.map { "chain \($0.chainID): \(reason)" } ?? reason
        }
    }

    /// One pass: given how many passes ran before (the engine spaces its slower work by
    /// it), with the engine's events reported as they happen. `ChainPass` is the real one.
    public typealias Pass =
        @Sendable (
            _ passesBefore: Int, _ events: @escaping @Sendable (SettlementEngine.Event) -> Void
        )
        async -> Outcome

    private let pass: Pass
    private let interval: Duration
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var sleeper: Task<Void, Never>?
    private var passesRun = 0

    public init(interval: Duration, pass: @escaping Pass) {
        self.interval = interval
        self.pass = pass
    }

    /// Passes until the task is cancelled.
    public func run(
        report: @Sendable (Outcome) async -> Void,
        events: @escaping @Sendable (SettlementEngine.Event) -> Void
    ) async {
        while !Task.isCancelled {
            let asked = waiters
            waiters = []
            let before = passesRun
            passesRun += 1
            await report(await pass(before, events))
            for waiter in asked { waiter.resume() }
            guard waiters.isEmpty else { continue }
            let sleeper = Task { [interval] in _ = try? await Task.sleep(for: interval) }
            self.sleeper = sleeper
            await withTaskCancellationHandler {
                await sleeper.value
            } onCancel: {
                sleeper.cancel()
            }
            self.sleeper = nil
        }
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    /// Brings the next pass forward and returns when it has finished.
    public func passNow() async {
        await withCheckedContinuation { waiter in
            waiters.append(waiter)
            sleeper?.cancel()
        }
    }
}
