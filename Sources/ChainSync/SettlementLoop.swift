import AsyncHTTPClient
import NodeKit
import Secp256k1
import Tender

/// The node's sync loop: a pass over every chain the node holds coins on every `interval`,
/// or at once when asked (`passNow`). Passes never overlap: one asked for during a pass is
/// the next one. What each pass did goes to `report`; the engine's events to `events`.
public actor SettlementLoop {
    public struct Outcome: Sendable {
        /// Redeem transactions still open after the pass, over every chain.
        public let open: Int
        /// What kept some chain from settling (nil: every chain settled or had nothing).
        public let failure: String?
    }

    let wallets: @Sendable () throws(NodeError) -> [Wallet]
    let registry: @Sendable () throws(NodeError) -> ChainRegistry
    let key: PrivateKey
    let client: HTTPClient
    let clock: any WallClock
    let interval: Duration
    let replaceAfter: UInt64
    let homeEndpoint: String
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var sleeper: Task<Void, Never>?
    private var passesRun = 0

    public init(
        wallets: @escaping @Sendable () throws(NodeError) -> [Wallet],
        registry: @escaping @Sendable () throws(NodeError) -> ChainRegistry, key: PrivateKey,
        client: HTTPClient, clock: any WallClock, interval: Duration, replaceAfter: UInt64,
        homeEndpoint: String
    ) {
        self.wallets = wallets
        self.registry = registry
        self.key = key
        self.client = client
        self.clock = clock
        self.interval = interval
        self.replaceAfter = replaceAfter
        self.homeEndpoint = homeEndpoint
    }

    /// Passes until the task is cancelled.
    public func run(
        report: @Sendable (Outcome) async -> Void,
        events: @escaping @Sendable (SyncEngine.Event) -> Void
    ) async {
        while !Task.isCancelled {
            let asked = waiters
            waiters = []
            await report(await pass(events: events))
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

    /// One pass over every chain, side by side.
    func pass(events: @escaping @Sendable (SyncEngine.Event) -> Void) async -> Outcome {
        let plan: [ChainSettlement]
        do {
            let wallets = try wallets()
            guard let home = wallets.first else { return Outcome(open: 0, failure: "no wallet") }
            plan = ChainSettlement.plan(
                wallets, home: home.domain, registry: try registry(),
                homeEndpoint: homeEndpoint)
        } catch { return Outcome(open: 0, failure: error.description) }
        let (key, client, clock, replaceAfter, passesBefore) = (
            key, client, clock, replaceAfter, passesRun
        )
        passesRun += 1
        let results = await withTaskGroup(of: [ChainSettlement.Result].self) { group in
            for chain in plan {
                group.addTask {
                    await chain.run(
                        key: key, client: client, clock: clock, passes: 1, pause: .zero,
                        passesBefore: passesBefore, replaceAfter: replaceAfter, events: events)
                }
            }
            var all: [ChainSettlement.Result] = []
            for await some in group { all += some }
            return all
        }
        let failures = results.compactMap { result in
            result.failure.map { "chain \(result.domain.chainID): \($0)" }
        }
        return Outcome(
            open: results.reduce(0) { $0 + $1.open },
            failure: failures.isEmpty ? nil : failures.joined(separator: "; "))
    }
}
