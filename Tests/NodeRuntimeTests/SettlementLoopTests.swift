import Foundation
import Logging
import NodeHost
import NodeKit
import NodeRuntime
import Settlement
import Synchronization
import Tender
import TenderTestSupport
import Testing

/// The sync loop in process, its chain a pass the test scripts: passes never overlap, one asked
/// for comes at once and returns when done, each pass knows how many ran before, and the node
/// reports what each did.
@Suite(.timeLimit(.minutes(10))) struct SettlementLoopTests {
    static let chain7 = Domain(chainID: 7, vault: .zero)

    /// The passes a loop ran: how many before each, and the outcome it gave.
    final class Script: Sendable {
        private let seen = Mutex<[Int]>([])
        private let running = Mutex(false)
        private let overlapped = Mutex(false)

        var before: [Int] { seen.withLock { $0 } }
        var overlaps: Bool { overlapped.withLock { $0 } }

        var pass: SettlementLoop.Pass {
            { [self] passesBefore, events in
                if running.withLock({
                    let was = $0; $0 = true; return was
                }) {
                    overlapped.withLock { $0 = true }
                }
                seen.withLock { $0.append(passesBefore) }
                events(.expired(coins: passesBefore))
                await Task.yield()
                running.withLock { $0 = false }
                return .init(
                    open: passesBefore,
                    failures: passesBefore == 1
                        ? [.init(domain: SettlementLoopTests.chain7, reason: "down")] : [])
            }
        }
    }

    @Test func aPassAskedForComesAtOnceAndPassesNeverOverlap() async {
        let script = Script()
        // An hour between passes: every pass after the first is one asked for.
        let loop = SettlementLoop(interval: .seconds(3600), pass: script.pass)
        let (reports, report) = AsyncStream.makeStream(of: SettlementLoop.Outcome.self)
        let events = Mutex<[SettlementEngine.Event]>([])
        let running = Task {
            await loop.run {
                report.yield($0)
            } events: { event in
                events.withLock { $0.append(event) }
            }
        }
        var outcomes = reports.makeAsyncIterator()
        #expect(await outcomes.next() == .init(open: 0))
        async let first: Void = loop.passNow()
        async let second: Void = loop.passNow()
        _ = await (first, second)
        await loop.passNow()
        running.cancel()
        await running.value
        #expect(script.before.first == 0)
        #expect(script.before == Array(0..<script.before.count))
        #expect((3...4).contains(script.before.count))
        #expect(!script.overlaps)
        let failed = await outcomes.next()
        #expect(
            failed
                == .init(
                    open: 1, failures: [.init(domain: SettlementLoopTests.chain7, reason: "down")]))
        #expect(failed?.failure == "chain 7: down")
        #expect(events.withLock { $0 }.first == .expired(coins: 0))
    }

    @Test func theNodeReportsEachPassInItsStatus() async throws {
        let home = try RuntimeHome()
        let script = Script()
        var settings = NodeConfiguration()
        settings.listen = .unix(path: home.folder.file("api.sock"))
        settings.bluetooth = .off
        settings.syncInterval = 0.1
        let ports = NodePorts(
            nearbyPayee: { _ in throw NearbyDeviceAbsent("none") },
            camera: { _, _ in FakePayeeMedium() }, settlement: { _ in script.pass })
        let node = try Node(
            host: home.host, settings: settings, token: "test-token-0123456789abcdef",
            logger: Logger(label: "test"), ports: ports)
        let running = Task { try await node.run() }
        defer { running.cancel() }
        let deadline = ContinuousClock.now + .generousWait
        while await node.state.sync.passes < 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let sync = await node.state.sync
        #expect(sync.enabled && sync.passes >= 3)
        // The second pass failed, the third did not: the status says both.
        #expect(sync.failures >= 1)
        #expect(sync.lastSuccessAt != nil)
    }
}
