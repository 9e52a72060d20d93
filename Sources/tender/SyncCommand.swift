import ArgumentParser
import AsyncHTTPClient
import ChainSync
import DevTools
import EVM
import Foundation
import NodeHost
import NodeKit
import Secp256k1
import Settlement
import Synchronization
import Tender

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Settle the coins this node holds: redeem them on the chains that back them.",
        discussion: """
            Every wallet of the node is settled (the home domain's and each other domain it \
            was paid in), each on its chain: at the endpoints of the chain registry (`tender \
            chain`), tried in order, or the local dev chain for a home domain not listed. \
            Chains are settled side by side. Coins go out in batches (redeem transactions to \
            the vault, signed with this node's key, which pays the gas), each recorded before \
            it is sent: a sync killed at any point is finished by the next, which sends the \
            same transaction again rather than a second one. Each coin ends redeemed, \
            conflicted (the vault saw it spent elsewhere: a double spend), expired, or queued \
            for the next batch. A pass that cannot reach the chain is tried again after a \
            backoff with jitter. A transaction out of every block for --replace-after \
            seconds is replaced by one with the same nonce and higher fees. On a terminal, a \
            bar shows the coins settled. Without --once or --watch, sync runs until every \
            batch it sent is settled (or --timeout).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "Settle on this endpoint's chain only, through it (default: the registry's).")
    var rpc: String?
    @Option(name: .customLong("chain-id"), help: "Settle on this chain only.")
    var chainID: UInt64?
    @Option(
        help:
            "Blocks on top of a redeem's (its own included) before its coins are settled (default: the registry's, else 2)."
    )
    var confirmations: UInt64?
    @Flag(help: "One pass: settle what is confirmed, send what is new, and stop.") var once = false
    @Flag(help: "Keep running, a pass every --interval seconds.") var watch = false
    @Option(help: "Seconds between passes.") var interval: Double = 2
    @Option(help: "Without --once or --watch: stop waiting for confirmations after this long.")
    var timeout: Double = 300
    @Option(
        name: .customLong("replace-after"),
        help: "Seconds a transaction may wait for a block before it is replaced with higher fees.")
    var replaceAfter: UInt64 = 180

    func validate() throws {
        guard !(once && watch) else { throw ValidationError("choose --once or --watch") }
        guard (confirmations ?? 1) >= 1 else {
            throw ValidationError("--confirmations must be at least 1")
        }
        guard interval > 0, timeout > 0 else {
            throw ValidationError("--interval and --timeout must be positive")
        }
    }

    /// The coins a run settles: those held unspent and those already in redeems.
    static func toSettle(_ plan: [ChainSettlement]) -> Int {
        plan.flatMap(\.wallets).reduce(0) {
            let tally = ChainSettlement.tally(of: $1.wallet)
            return $0 + (tally[.unspent] ?? 0) + (tally[.redeeming] ?? 0)
        }
    }

    func run() async throws {
        try await guarded {
            let wallets = try global.host.openWallets()
            let key = try global.keys.walletKey()
            let client = EthereumRPC.makeHTTPClient()
            let results: [ChainSettlement.Result]
            let log: SyncLog
            do {
                let plan = try await plan(wallets, client: client)
                // A bar only on a terminal: piped or redirected output stays plain lines.
                let bar = !output.json && isatty(STDERR_FILENO) == 1
                log = SyncLog(
                    quiet: output.json,
                    progress: bar
                        ? ProgressBar(total: Self.toSettle(plan), unit: "coins settled") : nil)
                results = await settle(plan, key: key, client: client, log: log)
            } catch {
                try? await client.shutdown()
                throw error
            }
            try? await client.shutdown()
            log.finish()
            try report(results, log: log)
            if let failure = results.compactMap(\.failure).first { throw failure }
        }
    }

    /// Which wallets settle where: with --rpc, the wallets of the chain it serves; else each
    /// wallet at its registry entry's endpoints (the dev chain for an unlisted home domain).
    private func plan(
        _ wallets: [Wallet], client: HTTPClient
    ) async throws -> [ChainSettlement] {
        let registry = try global.host.chainRegistry()
        var chosen = wallets.filter { chainID == nil || $0.domain.chainID == chainID }
        guard !chosen.isEmpty else {
            throw NodeError(.usage("this node holds no coins on chain \(chainID ?? 0)"))
        }
        if let rpc {
            // The endpoint first: unreachable, or serving another chain, is said before anything.
            let served = try await servedChainID(EthereumRPC(endpoint: rpc, client: client))
            chosen = chosen.filter { $0.domain.chainID == served }
            guard !chosen.isEmpty else {
                let held = Set(wallets.map(\.domain.chainID)).sorted().map(String.init)
                throw NodeError(
                    .usage(
                        "\(rpc) serves chain \(served); this node's coins are backed on chain \(held.joined(separator: ", "))"
                    ))
            }
        }
        return ChainSettlement.plan(
            chosen, home: wallets[0].domain, registry: registry, rpc: rpc,
            confirmations: confirmations, homeEndpoint: NodeDefaults.rpc
        ) { domain in
            say(
                "chain \(domain.chainID), vault \(domain.vault) is not in the chain registry: its coins wait (tender chain add)"
            )
        }
    }

    /// Every chain side by side; each chain's wallets one after the other (one key, one
    /// nonce sequence per chain).
    private func settle(
        _ plan: [ChainSettlement], key: PrivateKey, client: HTTPClient, log: SyncLog
    ) async -> [ChainSettlement.Result] {
        let passes =
            once ? 1 : watch ? Int.max : max(1, Int((timeout / interval).rounded(.up)) + 1)
        let (clock, pause) = (global.clock, Duration.milliseconds(Int64(interval * 1000)))
        let labelled = plan.count > 1 || plan.contains { $0.wallets.count > 1 }
        return await withTaskGroup(of: [ChainSettlement.Result].self) { group in
            for chain in plan {
                let prefix = labelled ? "chain \(chain.chainID): " : ""
                group.addTask {
                    await chain.run(
                        key: key, client: client, clock: clock, passes: passes, pause: pause,
                        replaceAfter: replaceAfter
                    ) { log.take($0, prefix: prefix) }
                }
            }
            var results: [ChainSettlement.Result] = []
            for await some in group { results += some }
            return results.sorted { ($0.domain.chainID, $0.order) < ($1.domain.chainID, $1.order) }
        }
    }

    private func report(_ results: [ChainSettlement.Result], log: SyncLog) throws {
        let total = { (state: CoinState) in results.reduce(0) { $0 + $1.count(state) } }
        if output.json {
            try printJSON([
                "chains": results.map { result -> [String: Any] in
                    var item: [String: Any] = [
                        "chainId": result.domain.chainID, "vault": result.domain.vault.checksummed,
                        "openTransactions": result.open, "coins": result.counts,
                    ]
                    item["rpc"] = result.endpoint
                    item["error"] = result.failure.map { Failure.describe($0).0 }
                    return item
                },
                "openTransactions": results.reduce(0) { $0 + $1.open }, "events": log.lines,
                "coins": Dictionary(
                    uniqueKeysWithValues: ChainSettlement.Result.reported.map {
                        ($0.rawValue, total($0))
                    }),
            ])
            return
        }
        for result in results {
            let chain = "Chain \(result.domain.chainID), vault \(result.domain.vault)"
            if let failure = result.failure {
                print("\(chain): not settled: \(Failure.describe(failure).0)")
                continue
            }
            print(
                "\(chain): \(result.count(.redeemed)) coins redeemed, \(result.count(.redeeming)) in redeem transactions, \(result.count(.conflicted)) conflicted, \(result.count(.expired)) expired, \(result.count(.unspent)) unspent; \(result.open) transaction(s) still open."
            )
        }
    }
}

/// Progress lines as the engine reports them (kept for --json), and the bar of coins settled
/// (on a terminal).
final class SyncLog: Sendable {
    private let quiet: Bool
    private let progress: ProgressBar?
    private let kept = Mutex<[String]>([])

    init(quiet: Bool, progress: ProgressBar? = nil) {
        self.quiet = quiet
        self.progress = progress
    }

    var lines: [String] { kept.withLock { $0 } }

    func finish() { progress?.finish() }

    func take(_ event: SyncEngine.Event, prefix: String = "") {
        switch event {
        case .recorded: CrashPoint.syncRecorded.hit()
        case .sent: CrashPoint.syncSent.hit()
        default: break
        }
        let line = Self.line(for: event)
        kept.withLock { $0.append(prefix + line) }
        if quiet { return }
        guard let progress else { return say(prefix + line) }
        progress.print(prefix + line)
        switch event {
        case .settled(_, let redeemed, let conflicted, let expired, _):
            progress.advance(by: redeemed + conflicted + expired)
        case .expired(let coins): progress.advance(by: coins)
        default: break
        }
    }

    /// What a person reads of `event`.
    static func line(for event: SyncEngine.Event) -> String {
        let line: String
        switch event {
        case .recorded(let tx, let coins):
            line = "recorded \(tx.hex) (\(coins) coins)"
        case .sent(let tx, let coins, let resent):
            line = "\(resent ? "sent again" : "sent") \(tx.hex) (\(coins) coins)"
        case .mined(let tx, let block): line = "mined \(tx.hex) in block \(block)"
        case .reorged(let tx): line = "reorg: \(tx.hex) left the chain; it is sent again"
        case .replaced(let tx, let replacement):
            line =
                "\(tx.hex) waited too long for a block: replaced by \(replacement.hex) (higher fees)"
        case .dropped(let tx, let coins):
            line =
                "\(tx.hex) will never be mined (another transaction of this key took its nonce)\(coins > 0 ? "; its \(coins) coins wait for the next batch" : "")"
        case .reverted(let tx, let coins):
            line = "reverted: \(tx.hex); its \(coins) coins wait for the next batch"
        case .settled(let tx, let redeemed, let conflicted, let expired, let retry):
            line =
                "settled \(tx.hex): \(redeemed) redeemed, \(conflicted) conflicted, \(expired) expired, \(retry) for the next batch"
        case .doubleSpend(let spend):
            line =
                "double spend of coin \(spend.coin.hex) by \(spend.owner): the vault recorded transfer \(spend.recorded.hex), this one presented \(spend.presented.hex)"
        case .expired(let coins): line = "\(coins) coins expired unredeemed"
        case .collateral(let issuers, let block):
            line = "collateral of \(issuers) issuer(s) read at block \(block)"
        case .denomination(let asset, let denomination):
            line =
                denomination.map { "token \(asset) is \($0)" }
                ?? "token \(asset) has no symbol and decimals: its amounts are shown in base units"
        case .paymentOnChain(let id):
            line = "payment \(id.hex): its transfer is on chain; spent (no receipt needed)"
        case .paymentLapsed(let id, let inputs):
            line =
                "payment \(id.hex) lapsed: its coins expired unredeemed; its \(inputs) input coin(s) are this wallet's again"
        case .fraudProofSent(let coin, let tx):
            line = "fraud proof of coin \(coin.hex) sent: \(tx.hex)"
        case .fraudProven(let coin, let owner, let mine):
            line =
                "the vault has the double spend of coin \(coin.hex) by \(owner) on record\(mine ? " (this node's proof)" : "")"
        case .fraudProofRefused(let coin, let reason):
            line = "fraud proof of coin \(coin.hex) refused by the chain: \(reason)"
        case .retrying(let reason, let wait):
            line = "could not reach the chain (\(reason)); trying again in \(wait.roundedSeconds) s"
        }
        return line
    }
}

extension Duration {
    var roundedSeconds: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return String(format: "%.1f", seconds)
    }
}
