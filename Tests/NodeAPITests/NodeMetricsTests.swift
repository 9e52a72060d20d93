import Foundation
import Hummingbird
import HummingbirdTesting
import NodeAPI
import NodeKit
import NodeTestSupport
import Settlement
import Tender
import TenderTestSupport
import Testing

/// `/metrics`: the token, the text format, the wallet read at the scrape, events counted.
@Suite struct NodeMetricsTests {
    let node = Node()
    var world: World { node.world }
    static let token = String(repeating: "9", count: 64)

    /// The value of the series `name{labels}` in a scrape (labels as Prometheus prints them).
    static func value(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Double($0.split(separator: " ").last!) }
    }

    @Test func aScrapeReadsTheWalletAndCountsWhatHappened() async throws {
        let alice = try node.fundedAlice([700, 300])
        let metrics = NodeMetrics()
        let state = NodeState(startedAt: node.clock.now() - 42)
        await state.syncEnabled(true)
        await state.syncPassed(at: node.clock.now() - 10, open: 2, error: nil)
        metrics.syncPassed(failed: false)
        metrics.syncPassed(failed: true)
        metrics.bluetoothSessionEnded(paid: true)
        metrics.redeemReverted()
        metrics.payoutDeferred()
        // Alice's coins in a batch of their own that reverted twice: held back.
        let coins = try alice.redeemableCoins(now: node.clock.now(), limit: 10).map(\.coin)
        for tag in [UInt8(1), 2] {
            let redeem = SignedRedeem(
                hash: try Bytes32([UInt8](repeating: tag, count: 32)),
                chainID: world.domain.chainID,
                vault: world.domain.vault, sender: world.alice, nonce: UInt64(tag), raw: [tag],
                coins: coins)
            try alice.recordRedeem(redeem, now: node.clock.now())
            try alice.redeemFailed(redeem.hash, reverted: true, now: node.clock.now())
        }
        let context = NodeAPIContext(
            wallets: { NodeWallets(home: alice) }, clock: node.clock, state: state,
            feed: PaymentFeed(), token: Self.token, metrics: metrics, syncNow: {})
        let chain = world.domain.chainID
        try await Application(router: APIRouter.make(context)).test(.router) { client in
            let refused = try await client.execute(uri: "/metrics", method: .get)
            #expect(refused.status == .unauthorized)
            let response = try await client.execute(
                uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.token)"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(buffer: response.body)
            #expect(Self.value(text, "tender_uptime_seconds") == 42)
            #expect(Self.value(text, "tender_sync_lag_seconds") == 10)
            #expect(Self.value(text, "tender_sync_open_transactions") == 2)
            #expect(Self.value(text, "tender_sync_passes_total") == 2)
            #expect(Self.value(text, "tender_sync_failures_total") == 1)
            #expect(Self.value(text, #"tender_ble_sessions_total{outcome="paid"}"#) == 1)
            #expect(Self.value(text, #"tender_errors_total{source="sync"}"#) == 1)
            // The 401 above, counted by status.
            #expect(Self.value(text, #"tender_api_failures_total{status="401"}"#) == 1)
            #expect(
                Self.value(text, #"tender_coins{chain_id="\#(chain)",state="unspent"}"#) == 2)
            #expect(
                Self.value(
                    text,
                    #"tender_balance_base_units{chain_id="\#(chain)",asset="\#(Address.zero.checksummed)",kind="spendable"}"#
                ) == 1000)
            #expect(Self.value(text, #"tender_incoming_payments{chain_id="\#(chain)"}"#) == 1)
            #expect(Self.value(text, "tender_redeems_reverted_total") == 1)
            #expect(Self.value(text, "tender_payouts_deferred_total") == 1)
            #expect(Self.value(text, #"tender_redeem_holds{chain_id="\#(chain)"}"#) == 1)
            #expect(Self.value(text, #"tender_redeem_held_coins{chain_id="\#(chain)"}"#) == 2)
            let status = try await client.execute(
                uri: "/api/status", method: .get,
                headers: [.authorization: "Bearer \(Self.token)"])
            let json = try JSONSerialization.jsonObject(with: Data(buffer: status.body))
            let held = try #require((json as? [String: Any])?["heldBack"] as? [[String: Any]])
            #expect(held.count == 1)
            #expect(held.first?["coins"] as? Int == 2)
            #expect(held.first?["asset"] as? String == Address.zero.checksummed)
            #expect(text.contains("# TYPE tender_coins gauge"))
            #expect(
                !text.contains("\nnan")
                    && !text.split(separator: "\n").contains { line in
                        !line.hasPrefix("#") && !line.hasPrefix("tender_")
                    })
        }
    }
}
