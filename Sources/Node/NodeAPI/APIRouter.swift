import APIBodies
import Foundation
import Hummingbird
import NIOCore
import NodeKit
import PaymentCodes
import Tender

/// The node's HTTP API (Docs/OPERATIONS.md lists every endpoint): everything under /api/
/// needs the bearer token; `/healthz` answers without it (a liveness probe learns nothing),
/// and so does `/pos`, the point-of-sale page, which holds no data: it calls the API with the
/// token it is given.
public enum APIRouter {
    public static func make(_ node: NodeAPIContext) -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.add(middleware: FailureCounting(metrics: node.metrics))
        router.add(middleware: HostCheck(allowed: node.hosts))
        router.add(middleware: UnknownRoutes())
        router.get("healthz") { _, _ in "ok\n" }
        // Prometheus scrapes with the same token (`authorization: credentials_file`).
        router.group("metrics").add(middleware: TokenAuthentication(token: node.token)).get {
            _, _ in try await metrics(node)
        }
        router.get("pos") { _, _ in PointOfSalePage.response() }
        let api = router.group("api").add(middleware: TokenAuthentication(token: node.token))
        api.get("status") { _, _ in try await status(node) }
        api.get("balance") { _, _ in try balance(node) }
        api.get("payments") { _, _ in try payments(node) }
        api.get("evidence") { _, _ in try evidence(node) }
        api.post("requests") { request, context in
            let bytes = try await body(request, context)
            let terms = try APIFailure.reading { () throws(BodyRefusal) in
                try NewRequestBody.read(bytes, longestLifetime: Wallet.longestRequestLifetime)
            }
            return try EditedResponse(status: .created, response: await newRequest(terms, node))
        }
        api.get("requests/{id}") { _, context in
            try await requestStatus(try context.parameters.require("id"), node)
        }
        api.get("requests/{id}/qr.svg") { _, context in
            try RequestCode.svg(
                try await issuedRequest(try context.parameters.require("id"), node).request)
        }
        api.get("requests/{id}/qr.png") { _, context in
            try RequestCode.png(
                try await issuedRequest(try context.parameters.require("id"), node).request)
        }
        api.get("receipts/{id}") { _, context in
            try ReceiptCode.envelope(try context.parameters.require("id"), node)
        }
        api.get("receipts/{id}/qr.svg") { _, context in
            try ReceiptCode.svg(try context.parameters.require("id"), node)
        }
        api.get("receipts/{id}/qr.png") { _, context in
            try ReceiptCode.png(try context.parameters.require("id"), node)
        }
        api.post("sync") { _, _ in
            await node.syncNow()
            return SyncView(sync: await node.state.sync)
        }
        api.get("events") { _, _ in
            guard let events = await node.feed.subscribe(limit: node.limits.maxEventStreams) else {
                throw APIFailure(
                    .serviceUnavailable, code: "busy",
                    reason:
                        "\(node.limits.maxEventStreams) event streams are open already: close one, or try again later"
                )
            }
            return EventStream.response(events)
        }
        AutomaticPaymentRoutes.add(to: api, node)
        CashuRoutes.add(to: api, node)
        return router
    }

    static func status(_ node: NodeAPIContext) async throws -> StatusView {
        let wallets = try answering { () throws(NodeError) in try node.wallets() }
        let home = wallets.home
        let now = node.clock.now()
        let startedAt = node.state.startedAt
        return StatusView(
            address: home.address.checksummed, home: DomainView(home.domain),
            domains: wallets.all.map { DomainView($0.domain) }, startedAt: startedAt,
            uptimeSeconds: NodeState.elapsed(from: startedAt, to: now), sync: await node.state.sync,
            heldBack: try answering { () throws(NodeError) in
                var held: [HeldBackView] = []
                for wallet in wallets.all {
                    held += try wallet.redeemHolds(now: now).map {
                        HeldBackView($0, in: wallet.domain)
                    }
                }
                return held
            },
            services: await node.state.services.mapValues(\.description),
            charge: UnitView(asset: .zero, node.charge(home)))
    }

    static func balance(_ node: NodeAPIContext) throws -> BalanceView {
        try answering { () throws(NodeError) in
            let wallets = try node.wallets()
            let now = node.clock.now()
            return BalanceView(
                address: wallets.home.address.checksummed,
                domains: try wallets.all.map { wallet throws(NodeError) in
                    let balances = try wallet.balances(now: now)
                    let units = node.denominations(wallet)
                    return DomainBalanceView(
                        chainId: wallet.domain.chainID, vault: wallet.domain.vault.checksummed,
                        assets: balances.keys.sorted().map {
                            AssetBalanceView(asset: $0, balances[$0]!, units[$0])
                        })
                })
        }
    }

    static func payments(_ node: NodeAPIContext) throws -> PaymentsView {
        try answering { () throws(NodeError) in
            var incoming: [IncomingPaymentView] = []
            var outgoing: [OutgoingPaymentView] = []
            for wallet in try node.wallets().all {
                let units = node.denominations(wallet)
                incoming += try wallet.incomingPayments().map {
                    IncomingPaymentView($0, domain: wallet.domain, units: units)
                }
                outgoing += try wallet.outgoingPayments().map {
                    OutgoingPaymentView($0, domain: wallet.domain, units: units)
                }
            }
            return PaymentsView(
                incoming: incoming.sorted { $0.receivedAt > $1.receivedAt },
                outgoing: outgoing.sorted { $0.createdAt > $1.createdAt })
        }
    }

    static func evidence(_ node: NodeAPIContext) throws -> EvidenceListView {
        try answering { () throws(NodeError) in
            var found: [EvidenceView] = []
            for wallet in try node.wallets().all {
                found += try wallet.evidence().map {
                    EvidenceView(
                        coin: $0.evidence.coin.hex, spender: $0.evidence.spender.checksummed,
                        chainId: wallet.domain.chainID, vault: wallet.domain.vault.checksummed,
                        foundAt: $0.foundAt)
                }
            }
            return EvidenceListView(evidence: found.sorted { $0.foundAt > $1.foundAt })
        }
    }

    static func newRequest(
        _ terms: NewRequestBody.Terms, _ node: NodeAPIContext
    ) async throws -> RequestView {
        let sessionKey = await node.offers.sessionKey()
        let (request, units) = try answering { () throws(NodeError) in
            let home = try node.wallets().home
            let request = try home.issueRequest(
                amount: terms.amount, asset: terms.asset, memo: terms.memo,
                lifetime: terms.lifetime,
                sessionKey: sessionKey, now: node.clock.now())
            return (request, node.denominations(home))
        }
        await node.offers.issued(request)
        return RequestView(request, state: "waiting", payment: nil, units: units)
    }

    /// A request this node issued, with the home wallet that holds it: 400 for an id that is
    /// not 32 bytes of hex, 404 for one the node did not issue.
    static func issuedRequest(
        _ id: String, _ node: NodeAPIContext
    ) async throws -> (request: PaymentRequest, home: Wallet) {
        let requestID = try APIFailure.reading { () throws(BodyRefusal) in
            try APIInput.requestID(id)
        }
        // The payee service's key while it runs: the code opens a session with it.
        let sessionKey = await node.offers.sessionKey()
        return try answering { () throws(NodeError) in
            let home = try node.wallets().home
            guard let request = try home.ownRequest(requestID, sessionKey: sessionKey) else {
                throw NodeError(.missing("this node issued no request \(id)"))
            }
            return (request, home)
        }
    }

    static func requestStatus(
        _ id: String, _ node: NodeAPIContext
    ) async throws -> RequestView {
        let (request, home) = try await issuedRequest(id, node)
        return try answering { () throws(NodeError) in
            let payment = try home.incomingPayment(request.id)
            let state =
                payment != nil ? "paid" : node.clock.now() >= request.expiry ? "expired" : "waiting"
            let units = node.denominations(home)
            return RequestView(
                request, state: state,
                payment: payment.map { IncomingPaymentView($0, domain: home.domain, units: units) },
                units: units)
        }
    }

    /// The body's bytes, at most the upload cap: a longer one is 413 with the reason.
    static func body(_ request: Request, _ context: APIRequestContext) async throws -> [UInt8] {
        do {
            return Array(buffer: try await request.body.collect(upTo: context.maxUploadSize))
        } catch is NIOTooManyBytesError {
            throw APIFailure(
                .contentTooLarge, code: "too-large",
                reason: "the body is over \(context.maxUploadSize / 1024) KiB")
        }
    }
}
