import AsyncHTTPClient
import CashuMint
import CashuWallet
import NodeHost
import NodeKit

/// The Cashu part of a sync pass (Docs/CASHU.md): at every mint where tokens were taken and
/// not swapped, or a swap, a mint or a melt was cut short, the wallet settles as a sync by
/// hand does. One settler at a time: while another process swaps (a sync by hand), this pass
/// leaves the mints to it.
struct CashuPass: Sendable {
    let wallet: CashuWallet
    let directory: DataDirectory
    let client: HTTPClient
    let clock: any WallClock

    /// What each mint's settling did; the mints that failed, as the loop's failures.
    func callAsFunction() async -> (
        settled: [CashuSettlement], failures: [SettlementLoop.Failure]
    ) {
        let lock: FileLock
        do { lock = try directory.lockForCashu(waiting: false) } catch {
            if case .busy = error.kind { return ([], []) }
            return ([], [SettlementLoop.Failure(domain: nil, reason: "Cashu: \(error)")])
        }
        defer { withExtendedLifetime(lock) {} }
        let mints: [String]
        do { mints = try wallet.mintsToSettle() } catch {
            return ([], [SettlementLoop.Failure(domain: nil, reason: "the Cashu store: \(error)")])
        }
        var settled: [CashuSettlement] = []
        for mint in mints {
            settled.append(
                await wallet.settle(
                    with: MintClient(url: mint, client: client), now: { clock.now() }))
        }
        let failures = settled.compactMap { report in
            report.failure.map {
                SettlementLoop.Failure(domain: nil, reason: "Cashu mint \(report.mint): \($0)")
            }
        }
        return (settled, failures)
    }
}
