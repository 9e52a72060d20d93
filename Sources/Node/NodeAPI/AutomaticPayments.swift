import APIBodies
import Foundation
import Hummingbird
import NodeKit
import PaymentCodes
import Secp256k1
import Tender

/// Payments the node makes on its own, through the API (a kiosk paying a supplier, a script
/// paying scanned requests): no person confirms them, so each must fit under the node's
/// spending limits, checked and counted in the transaction that records it. A payment is
/// prepared (coins and limit reserved), then either exported (its bytes leave the node: it can
/// no longer be cancelled) or cancelled (coins and limit released); a receipt marks it spent.
public struct AutomaticPayer: Sendable {
    public let key: PrivateKey
    public let limits: [SpendingLimit]
    let desk = PaymentDesk()

    public init(key: PrivateKey, limits: [SpendingLimit]) {
        self.key = key
        self.limits = limits
    }
}

/// Prepares the node's own payments one at a time. Payments made at once would all choose
/// the same best coin and all but one find it taken; in turn, each sees what the last
/// reserved. (A coin another process takes first is chosen again by
/// `Wallet.preparePayment` itself.)
actor PaymentDesk {
    func prepare<T: Sendable>(_ body: @Sendable () throws(NodeError) -> T) throws(NodeError) -> T {
        try body()
    }
}

enum AutomaticPaymentRoutes {
    static func add(to api: RouterGroup<APIRequestContext>, _ node: NodeAPIContext) {
        api.get("limits") { _, _ in try limits(node) }
        api.post("payments") { request, context in
            let bytes = try await APIRouter.body(request, context)
            return EditedResponse(status: .created, response: try await pay(bytes, node))
        }
        api.post("payments/{id}/export") { _, context in
            let bytes = try advance(try context.parameters.require("id"), node) {
                wallet, id, now throws(NodeError) in try wallet.exportPayment(id, now: now)
            }
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        api.post("payments/{id}/cancel") { _, context in
            try advance(try context.parameters.require("id"), node) {
                wallet, id, now throws(NodeError) in
                try wallet.cancelPayment(id, now: now)
                return try view(wallet, id, node)
            }
        }
        api.post("payments/{id}/receipt") { request, context in
            let id = try context.parameters.require("id")
            let bytes = try await APIRouter.body(request, context)
            return try advance(id, node) { wallet, requestID, now throws(NodeError) in
                view(
                    try wallet.recordReceipt(bytes, for: requestID, now: now),
                    wallet,
                    node)
            }
        }
    }

    static func payer(_ node: NodeAPIContext) throws(APIFailure) -> AutomaticPayer {
        guard let payer = node.payer else {
            throw APIFailure(NodeError(.overLimit(.noLimits)))
        }
        return payer
    }

    static func limits(_ node: NodeAPIContext) throws -> LimitsView {
        let limits = node.payer?.limits ?? []
        return try answering { () throws(NodeError) in
            let uses = try node.wallets().home.spendingUse(limits, now: node.clock.now())
            return LimitsView(limits: uses.map(LimitView.init))
        }
    }

    static func pay(
        _ bytes: [UInt8], _ node: NodeAPIContext
    ) async throws -> OutgoingPaymentResponse {
        let payer = try payer(node)
        let now = node.clock.now()
        let wallet = try answering { () throws(NodeError) in try node.wallets().home }
        let terms = try APIFailure.reading { () throws(BodyRefusal) in
            try NewPaymentBody.read(bytes, domain: wallet.domain, now: now)
        }
        var generator = SystemRandomNumberGenerator()
        let requestID = terms.request?.id ?? .random(using: &generator)
        // Only the preparing waits its turn; the answer is read after.
        let prepared: Wallet.PreparedPayment
        do {
            prepared = try await payer.desk.prepare { () throws(NodeError) in
                try wallet.preparePayment(
                    to: terms.payee, amount: terms.amount, asset: terms.asset,
                    memo: terms.memo, requestID: requestID, request: terms.request,
                    key: payer.key, within: payer.limits, now: now)
            }
        } catch {
            // The reason is for people: its amounts as they read them, and what the node holds
            // in other vaults when home falls short (the API pays from home only: its spending
            // limits are counted in the home wallet, in the transaction that records a payment).
            var said = error
            if case .rejected(let refusal) = error.kind, case .insufficientFunds = refusal.kind,
                let held = try? node.wallets().held(
                    terms.asset, besides: wallet.domain, now: now,
                    format: { other, amount in
                        node.denominations(other).format(amount, of: terms.asset)
                    }),
                !held.isEmpty
            {
                said = error.noting(
                    "held in other vaults: \(held.joined(separator: "; ")); the node pays on its own from its home vault only, where its spending limits are counted"
                )
            }
            throw APIFailure(said, units: node.denominations(wallet))
        }
        return try answering { () throws(NodeError) in try view(wallet, prepared.requestID, node) }
    }

    static func view(
        _ wallet: Wallet, _ id: Bytes32, _ node: NodeAPIContext
    ) throws(NodeError) -> OutgoingPaymentResponse {
        view(try wallet.outgoingPayment(id), wallet, node)
    }

    static func view(
        _ record: OutgoingPaymentRecord, _ wallet: Wallet, _ node: NodeAPIContext
    ) -> OutgoingPaymentResponse {
        OutgoingPaymentResponse(
            payment: OutgoingPaymentView(
                record, domain: wallet.domain, units: node.denominations(wallet)))
    }

    /// Applies `change` to the home wallet's payment `id` (hex), errors as the API reports them.
    static func advance<T>(
        _ id: String, _ node: NodeAPIContext,
        _ change: (Wallet, Bytes32, UInt64) throws(NodeError) -> T
    ) throws -> T {
        let requestID = try APIFailure.reading { () throws(BodyRefusal) in
            try APIInput.requestID(id)
        }
        return try answering { () throws(NodeError) in
            try change(try node.wallets().home, requestID, node.clock.now())
        }
    }
}
