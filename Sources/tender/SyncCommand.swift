import ArgumentParser
import ChainSync
import DevTools
import EVM
import Foundation
import NodeKit
import Secp256k1
import Settlement
import Synchronization
import Tender

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Settle the coins this node holds: redeem them on the chain that backs them.",
        discussion: """
            Coins go out in batches (redeem transactions to the vault, signed with this node's \
            key, which pays the gas), each recorded before it is sent: a sync killed at any \
            point is finished by the next, which sends the same transaction again rather than \
            a second one. Each coin ends redeemed, conflicted (the vault saw it spent \
            elsewhere: a double spend), expired, or queued for the next batch. Without --once \
            or --watch, sync runs until every batch it sent is settled (or --timeout).
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "The chain's JSON-RPC endpoint (default: the local dev chain).")
    var rpc = "http://127.0.0.1:8545"
    @Option(help: "Blocks on top of a redeem's (its own included) before its coins are settled.")
    var confirmations: UInt64 = 2
    @Flag(help: "One pass: settle what is confirmed, send what is new, and stop.") var once = false
    @Flag(help: "Keep running, a pass every --interval seconds.") var watch = false
    @Option(help: "Seconds between passes.") var interval: Double = 2
    @Option(help: "Without --once or --watch: stop waiting for confirmations after this long.")
    var timeout: Double = 300

    func validate() throws {
        guard !(once && watch) else { throw ValidationError("choose --once or --watch") }
        guard confirmations >= 1 else {
            throw ValidationError("--confirmations must be at least 1")
        }
        guard interval > 0, timeout > 0 else {
            throw ValidationError("--interval and --timeout must be positive")
        }
    }

    func run() async throws {
        try await guarded {
            let wallet = try global.openWallet()
            let key = try global.keys.walletKey()
            let client = EthereumRPC.makeHTTPClient()
            do {
                try await sync(wallet, key: key, rpc: EthereumRPC(endpoint: rpc, client: client))
            } catch {
                try? await client.shutdown()
                throw error
            }
            try? await client.shutdown()
        }
    }

    private func sync(_ wallet: Wallet, key: PrivateKey, rpc: EthereumRPC) async throws {
        // The endpoint first: unreachable, or serving another chain, is said before anything.
        let served: UInt64
        do { served = try await rpc.chainID() } catch {
            throw NodeError(.io("\(error)"), note: "is the chain's node running? (--rpc URL)")
        }
        guard served == wallet.domain.chainID else {
            throw NodeError(
                .usage(
                    "\(rpc.endpoint) serves chain \(served); this wallet's coins are backed on chain \(wallet.domain.chainID)"
                ))
        }
        let chain = EVMSettlementChain(rpc: rpc, chainID: wallet.domain.chainID, key: key)
        let engine = SyncEngine(
            wallet: wallet, chain: chain, clock: global.clock, confirmations: confirmations)
        let log = SyncLog(quiet: output.json)
        let passes =
            once ? 1 : watch ? Int.max : max(1, Int((timeout / interval).rounded(.up)) + 1)
        let open = try await engine.run(
            passes: passes, pause: .milliseconds(Int64(interval * 1000))
        ) { log.take($0) }
        let states = try wallet.coinStates().values
        let count = { (state: CoinState) in states.filter { $0 == state }.count }
        if output.json {
            try printJSON([
                "chainId": wallet.domain.chainID, "vault": wallet.domain.vault.checksummed,
                "rpc": rpc.endpoint, "openTransactions": open, "events": log.lines,
                "coins": [
                    "redeemed": count(.redeemed), "redeeming": count(.redeeming),
                    "conflicted": count(.conflicted), "expired": count(.expired),
                    "unspent": count(.unspent),
                ],
            ])
        } else {
            print(
                "Chain \(wallet.domain.chainID), vault \(wallet.domain.vault): \(count(.redeemed)) coins redeemed, \(count(.redeeming)) in redeem transactions, \(count(.conflicted)) conflicted, \(count(.expired)) expired, \(count(.unspent)) unspent; \(open) transaction(s) still open."
            )
        }
    }
}

/// Progress lines as the engine reports them (kept for --json).
final class SyncLog: Sendable {
    private let quiet: Bool
    private let kept = Mutex<[String]>([])

    init(quiet: Bool) { self.quiet = quiet }

    var lines: [String] { kept.withLock { $0 } }

    func take(_ event: SyncEngine.Event) {
        let line: String
        switch event {
        case .recorded(let tx, let coins):
            CrashPoint.syncRecorded.hit()
            line = "recorded \(tx.hex) (\(coins) coins)"
        case .sent(let tx, let coins, let resent):
            CrashPoint.syncSent.hit()
            line = "\(resent ? "sent again" : "sent") \(tx.hex) (\(coins) coins)"
        case .mined(let tx, let block): line = "mined \(tx.hex) in block \(block)"
        case .reorged(let tx): line = "reorg: \(tx.hex) left the chain; it is sent again"
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
        }
        kept.withLock { $0.append(line) }
        if !quiet { say(line) }
    }
}
