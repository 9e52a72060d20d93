import ArgumentParser
import Codecs
import DevTools
import Foundation
import NodeHost
import NodeKit
import NodeRuntime
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

            Which coins it redeems is a choice of role (--redeem): by hand, a payer's wallet \
            keeps the coins it can still pay with and redeems only those it cannot (expiring \
            within a week, or passed on as often as a coin may be offline): `unpayable`, the \
            default. A payee redeems every coin it takes: `all` (what `tender node` does). \
            `none` only reads the vault: issuers' collateral (open mode), payments the chain \
            settled, fraud records. A batch is sent only when the wallet's address holds the \
            gas for it; otherwise its coins stay spendable and sync says how much it needs.

            Examples:
              tender sync --once
              tender sync --watch --redeem all          (a stall: redeem every coin it takes)
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
    @Option(
        help:
            "Coins worth less than the gas of redeeming them: wait (for cheaper gas, or coins to share their proofs) or redeem anyway (default: the registry's dust, else wait)."
    )
    var dust: DustPolicy?
    @Option(
        help:
            "Which held coins to redeem: unpayable (only those that can no longer be paid with), all (a payee's every coin), or none (read the vault only)."
    )
    var redeem: RedeemPolicy = .unpayable
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
        let depths = ChainEntry.confirmationsRange
        guard depths.contains(confirmations ?? 1) else {
            throw ValidationError(
                "--confirmations must be \(depths.lowerBound)…\(depths.upperBound)")
        }
        // Finite and bounded: every wait must fit a Duration (a day between passes, a week
        // of waiting for confirmations), and a pass every 0.1 s is as often as any chain needs.
        guard (0.1...86_400).contains(interval) else {
            throw ValidationError("--interval must be 0.1…86400 seconds")
        }
        guard (0.1...604_800).contains(timeout) else {
            throw ValidationError("--timeout must be 0.1…604800 seconds")
        }
        if let rpc, !ChainEntry.isEndpoint(rpc) {
            throw ValidationError(
                "--rpc: '\(RedactedURL.text(rpc))' is not an http:// or https:// URL with a host and a port of 1…65535"
            )
        }
    }

    func run() async throws {
        try await guarded {
            let host = global.host
            let wallets = try host.openWallets()
            // The settlers' lock, held while this runs: a node syncing this folder holds it
            // (two would send with one key side by side), and cannot start its sync meanwhile.
            let lock = try host.directory.lockForSync(
                busy:
                    "`tender node` is running on \(host.directory.path) and syncs it already: `curl -X POST -H \"Authorization: Bearer $(cat \(host.directory.path)/api-token)\" http://127.0.0.1:8737/api/sync` asks it for a pass now (the node's --listen or [api] listen if not that address); its log and /api/status say how it went"
            )
            defer { withExtendedLifetime(lock) {} }
            let settling = Settling(
                wallets: wallets, registry: try host.chainRegistry(),
                clock: global.clock, rpc: rpc, chainID: chainID, confirmations: confirmations,
                dust: dust, redeem: redeem)
            let key = try global.keys.walletKey()
            let results: [Settling.Outcome]
            let log: SyncLog
            do {
                let plan = try await settling.plan { domain in
                    say(
                        "chain \(domain.chainID), vault \(domain.vault) is not in the chain registry: its coins wait (tender chain add)"
                    )
                }
                // A bar only on a terminal: piped or redirected output stays plain lines.
                let bar = !output.json && isatty(STDERR_FILENO) == 1
                log = SyncLog(
                    quiet: output.json,
                    progress: bar
                        ? ProgressBar(total: plan.coinsToSettle, unit: "coins settled") : nil)
                let passes =
                    once ? 1 : watch ? Int.max : max(1, Int((timeout / interval).rounded(.up)) + 1)
                results = await settling.settle(
                    plan, key: key, passes: passes,
                    pause: .milliseconds(Int64(interval * 1000)), replaceAfter: replaceAfter
                ) { log.take($1, prefix: $0) }
            } catch {
                await settling.shutdown()
                throw error
            }
            await settling.shutdown()
            log.finish()
            try report(results, log: log)
            if let failure = results.compactMap(\.failure).first { throw failure }
        }
    }

    private func report(_ results: [Settling.Outcome], log: SyncLog) throws {
        let total = { (state: CoinState) in results.reduce(0) { $0 + $1.count(state) } }
        // Issuers' assets whose coins wait (a batch of theirs reverted alone, or the vault
        // found their issuer short of collateral), as the store has them after the run.
        let now = global.clock.now()
        let holds = results.map { result in
            (try? global.host.openWallet(for: result.domain).redeemHolds(now: now)) ?? []
        }
        if output.json {
            try printJSON([
                "chains": zip(results, holds).map { result, held -> [String: Any] in
                    var item: [String: Any] = [
                        "heldBack": held.map { hold -> [String: Any] in
                            [
                                "issuer": hold.issuer.checksummed,
                                "asset": hold.asset.checksummed, "coins": hold.coins,
                                "until": hold.until,
                                "reason": hold.reason.rawValue,
                            ]
                        },
                        "chainId": result.domain.chainID, "vault": result.domain.vault.checksummed,
                        "openTransactions": result.open,
                        "coins": Dictionary(
                            uniqueKeysWithValues: Settling.Outcome.reported.map {
                                ($0.rawValue, result.count($0))
                            }),
                    ]
                    item["rpc"] = result.endpoint.map(RedactedURL.text)
                    item["error"] = result.failure.map { Failure.describe($0).0 }
                    return item
                },
                "openTransactions": results.reduce(0) { $0 + $1.open }, "events": log.lines,
                "waitingForGas": log.waitingForGas, "redeem": redeem.rawValue,
                "heldBack": holds.reduce(0) { $0 + $1.reduce(0) { $0 + $1.coins } },
                "coins": Dictionary(
                    uniqueKeysWithValues: Settling.Outcome.reported.map {
                        ($0.rawValue, total($0))
                    }),
            ])
            return
        }
        for (result, held) in zip(results, holds) {
            let chain = "Chain \(result.domain.chainID), vault \(result.domain.vault)"
            if let failure = result.failure {
                print("\(chain): not settled: \(Failure.describe(failure).0)")
                continue
            }
            print(
                "\(chain): \(result.count(.redeemed)) coins redeemed, \(result.count(.redeeming)) in redeem transactions, \(result.count(.conflicted)) conflicted, \(result.count(.expired)) expired, \(result.count(.unspent)) unspent; \(result.open) transaction(s) still open."
            )
            if redeem != .all, result.count(.unspent) > 0 {
                print(
                    "  \(result.count(.unspent)) coin(s) kept to pay with: \(redeem == .none ? "--redeem none reads the vault only" : "by hand, sync redeems only coins that can no longer be paid with") (--redeem all redeems every one)"
                )
            }
            if result.open > 0, !once, !watch {
                // Not a failure: the transactions are recorded, and the next sync settles them.
                let seconds = timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
                print(
                    "  --timeout \(seconds) s reached: \(result.open) transaction(s) still wait for their blocks; `tender sync` again settles them (nothing is lost)"
                )
            }
            for hold in held {
                let why =
                    hold.reason == .reverted
                    ? "a batch of them alone reverted"
                    : "the vault found the issuer short of collateral"
                print(
                    "  held back: \(hold.coins) coin(s) of issuer \(hold.issuer)'s asset \(hold.asset) until \(UTCTime.format(hold.until)) (\(why))"
                )
            }
        }
    }
}

/// Progress lines as the engine reports them (kept for --json), and the bar of coins settled
/// (on a terminal).
final class SyncLog: Sendable {
    private let quiet: Bool
    private let progress: ProgressBar?
    private let kept = Mutex<[String]>([])
    /// Coins each chain's last pass left waiting for cheaper gas, by the lines' prefix.
    private let dust = Mutex<[String: Int]>([:])

    init(quiet: Bool, progress: ProgressBar? = nil) {
        self.quiet = quiet
        self.progress = progress
    }

    var lines: [String] { kept.withLock { $0 } }

    /// Coins left waiting for cheaper gas (worth less than their redeem would add).
    var waitingForGas: Int { dust.withLock { $0.values.reduce(0, +) } }

    func finish() { progress?.finish() }

    func take(_ event: SettlementEngine.Event, prefix: String = "") {
        switch event {
        case .recorded: CrashPoint.syncRecorded.hit()
        case .sent: CrashPoint.syncSent.hit()
        case .dust(let coins, _, _, _): dust.withLock { $0[prefix] = coins }
        default: break
        }
        let line = SettlementEventText.line(for: event)
        kept.withLock { $0.append(prefix + line) }
        if quiet { return }
        guard let progress else { return say(prefix + line) }
        progress.print(prefix + line)
        switch event {
        case .settled(_, let redeemed, let conflicted, let expired, _, _):
            progress.advance(by: redeemed + conflicted + expired)
        case .expired(let coins): progress.advance(by: coins)
        default: break
        }
    }
}

extension DustPolicy: ExpressibleByArgument {}
extension RedeemPolicy: ExpressibleByArgument {}
