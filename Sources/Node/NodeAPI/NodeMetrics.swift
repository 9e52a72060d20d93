import CashuWallet
import Foundation
import Hummingbird
import NodeKit
import Prometheus
import Tender

/// The node's Prometheus series, `tender_`-prefixed (`GET /metrics`, Docs/OPERATIONS.md lists
/// them). Events are counted as they happen (payments landing, sync passes, Bluetooth
/// sessions, camera payments, errors); what the wallets hold is read at each scrape, so a scrape is always the
/// wallet's truth and nothing is kept twice.
public final class NodeMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let paymentsReceived: Counter
    private let syncPasses: Counter
    private let syncFailures: Counter
    private let redeemsReverted: Counter
    private let payoutsDeferred: Counter

    public init() {
        paymentsReceived = registry.makeCounter(
            descriptor: Self.series(
                "payments_received_total",
                "Payments that landed in the node's wallets since it started, however they came."))
        syncPasses = registry.makeCounter(
            descriptor: Self.series(
                "sync_passes_total", "Sync passes finished since the node started."))
        syncFailures = registry.makeCounter(
            descriptor: Self.series(
                "sync_failures_total", "Sync passes that failed (chain unreachable, RPC errors)."))
        redeemsReverted = registry.makeCounter(
            descriptor: Self.series(
                "redeems_reverted_total",
                "Redeem transactions mined and reverted (their coins go out again, by issuer and asset)."
            ))
        payoutsDeferred = registry.makeCounter(
            descriptor: Self.series(
                "payouts_deferred_total",
                "Token payouts the token refused: the coins are redeemed and the vault owes the amount."
            ))
        for outcome in ["paid", "failed"] { _ = bluetoothSessions(outcome) }
        for outcome in ["paid", "refused"] { _ = cameraPayments(outcome) }
        _ = errors("api")
        _ = errors("sync")
    }

    /// A sync pass finished (`failed`: it could not complete).
    public func syncPassed(failed: Bool) {
        syncPasses.increment()
        if failed {
            syncFailures.increment()
            errors("sync").increment()
        }
    }

    /// A redeem transaction was mined and reverted.
    public func redeemReverted() { redeemsReverted.increment() }

    /// A token refused a redeem's payout (the vault owes it).
    public func payoutDeferred() { payoutsDeferred.increment() }

    /// A Bluetooth payment session ended: `paid`, or `failed` (the link dropped, the payer
    /// misbehaved, the payment was refused).
    public func bluetoothSessionEnded(paid: Bool) {
        bluetoothSessions(paid ? "paid" : "failed").increment()
        if !paid { errors("bluetooth").increment() }
    }

    /// The Bluetooth payee service failed (not a session: the service itself).
    public func bluetoothFailed() { errors("bluetooth").increment() }

    /// A Cashu token was taken offline (by the camera or the API) or refused.
    public func cashuTokenEnded(taken: Bool) { cashuTokens(taken ? "taken" : "refused") }

    /// A Cashu token taken already was offered again (held in view of the camera).
    public func cashuTokenRepeated() { cashuTokens("repeated") }

    private func cashuTokens(_ outcome: String) {
        registry.makeCounter(
            descriptor: Self.series(
                "cashu_tokens_total", "Cashu tokens offered to the node, by outcome."),
            labels: [("outcome", outcome)]
        ).increment()
    }

    /// What a sync did at a Cashu mint: amounts swapped and refused, by unit (in its smallest
    /// unit: cents for usd).
    public func cashuSettled(_ report: CashuSettlement) {
        for (kind, amounts) in [("swapped", report.swapped), ("refused", report.refused)] {
            for (unit, amount) in amounts {
                registry.makeCounter(
                    descriptor: Self.series(
                        "cashu_\(kind)_total",
                        "Cashu amounts \(kind) at their mints by the node's sync, by unit (its smallest)."
                    ), labels: [("unit", unit)]
                ).increment(by: Int64(clamping: amount))
            }
        }
        if report.failure != nil { errors("cashu").increment() }
    }

    /// A payment read by the camera was accepted (`paid`) or refused.
    public func cameraPaymentEnded(paid: Bool) {
        cameraPayments(paid ? "paid" : "refused").increment()
        if !paid { errors("camera").increment() }
    }

    /// The camera payee could not use its camera (missing, gone, no permission).
    public func cameraFailed() { errors("camera").increment() }

    func apiRequestFailed(status: Int) {
        // 4xx is the caller's doing, still worth watching; both count as API errors.
        errors("api").increment()
        registry.makeCounter(
            descriptor: Self.series(
                "api_failures_total", "API requests answered with an error status, by status."),
            labels: [("status", String(status))]
        ).increment()
    }

    /// Payments the feed announced (`PaymentFeed.run`'s `landed`).
    public func paymentsLanded(_ count: Int) { paymentsReceived.increment(by: Int64(count)) }

    private func bluetoothSessions(_ outcome: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.series(
                "ble_sessions_total",
                "Bluetooth payment sessions the payee service ran, by outcome."),
            labels: [("outcome", outcome)])
    }

    private func cameraPayments(_ outcome: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.series(
                "camera_payments_total", "Payments the camera payee read, by outcome."),
            labels: [("outcome", outcome)])
    }

    private func errors(_ source: String) -> Counter {
        registry.makeCounter(
            descriptor: Self.series(
                "errors_total",
                "Errors, by where they happened (api, sync, bluetooth, camera, cashu)."),
            labels: [("source", source)])
    }

    /// The text exposition format, with the gauges read now from the wallets and the state.
    func scrape(_ node: NodeAPIContext) async throws(NodeError) -> String {
        let now = node.clock.now()
        let state = node.state
        let sync = await state.sync
        gauge(
            "uptime_seconds", "Seconds since the node started."
        ).set(
            Double(NodeState.elapsed(from: state.startedAt, to: now)))
        let lastGood = sync.lastSuccessAt ?? state.startedAt
        gauge(
            "sync_lag_seconds",
            "Seconds since the last sync pass that did not fail (since start when none has)."
        ).set(sync.enabled ? Double(NodeState.elapsed(from: lastGood, to: now)) : 0)
        gauge(
            "sync_open_transactions", "Redeem transactions still open after the last pass."
        )
        .set(Double(sync.openTransactions))
        gauge(
            "redeem_dust_coins",
            "Coins the last sync pass left waiting: worth less than the gas of redeeming them."
        ).set(Double(sync.waitingForGas))
        gauge(
            "event_subscribers", "Open payment event streams."
        ).set(
            Double(node.feed.subscriberCount))
        for wallet in try node.wallets().all {
            let chain = ("chain_id", String(wallet.domain.chainID))
            let counts = try wallet.coinCounts()
            for coinState in CoinState.allCases {
                gauge(
                    "coins", "Coins the wallet holds or held, by state.",
                    [chain, ("state", coinState.rawValue)]
                ).set(Double(counts[coinState] ?? 0))
            }
            for (asset, balance) in try wallet.balances(now: now) {
                for (kind, amount) in [
                    ("spendable", balance.spendable), ("expiring", balance.expiring),
                    ("pending", balance.pending), ("in_doubt", balance.inDoubt),
                    ("received_unsettled", balance.receivedUnsettled),
                    ("redeeming", balance.redeeming), ("redeemed", balance.redeemed),
                ] {
                    gauge(
                        "balance_base_units",
                        "The wallet's balance in the asset's base units, by kind.",
                        [chain, ("asset", asset.checksummed), ("kind", kind)]
                    ).set(Double(amount))
                }
            }
            let outgoing = try wallet.outgoingPaymentCounts()
            for paymentState in OutgoingPaymentState.allCases {
                gauge(
                    "outgoing_payments", "Payments the wallet made, by state.",
                    [chain, ("state", paymentState.rawValue)]
                ).set(Double(outgoing[paymentState] ?? 0))
            }
            gauge(
                "incoming_payments", "Payments the wallet accepted.", [chain]
            ).set(Double(try wallet.incomingPaymentCount()))
            let holds = try wallet.redeemHolds(now: now)
            gauge(
                "redeem_holds",
                "Issuers' assets held back from redeems (a batch of theirs alone reverted).",
                [chain]
            ).set(Double(holds.count))
            gauge(
                "redeem_held_coins", "Coins waiting while their issuer's asset is held back.",
                [chain]
            ).set(Double(holds.reduce(0) { $0 + $1.coins }))
        }
        return registry.emitToString()
    }

    /// `tender_<name>`, with its help line.
    static func series(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "tender", metricName: name, unitName: "", helpText: help)
    }

    private func gauge(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Gauge {
        registry.makeGauge(
            descriptor: Self.series(name, help), labels: labels)
    }
}

extension APIRouter {
    static func metrics(_ node: NodeAPIContext) async throws -> Response {
        let text = try await answering { () async throws(NodeError) in
            try await node.metrics.scrape(node)
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
