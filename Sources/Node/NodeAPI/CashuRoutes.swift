import CashuStore
import Codecs
import Foundation
import Hummingbird
import HummingbirdCore
import NodeKit
import PaymentCodes
import QR

/// Cashu through the API (Docs/OPERATIONS.md): what the wallet holds, its payments, and a
/// token handed in (a till that pastes or scans it itself), taken offline as the camera
/// takes one.
enum CashuRoutes {
    static func add(to api: RouterGroup<APIRequestContext>, _ node: NodeAPIContext) {
        api.get("cashu/balance") { _, _ in
            let payee = try payee(node)
            return try answering { () throws(NodeError) in
                let wallet = try payee.wallet()
                let store = wallet.store
                return CashuBalancesView(
                    lockKey: Hex.encode(wallet.lockPublicKey.compressed, prefix: false),
                    units: try Self.store {
                        Set(
                            try store.mints().flatMap {
                                try store.keysets(mint: $0.url).map(\.unit)
                            }
                        )
                        .sorted()
                    },
                    balances: try Self.store { try store.balances(now: payee.clock.now()) }.map(
                        CashuBalanceView.init))
            }
        }
        api.get("cashu/payments") { _, _ in
            let payee = try payee(node)
            return try answering { () throws(NodeError) in
                CashuPaymentsView(
                    payments: try store { try payee.wallet().store.payments() }.reversed().map(
                        CashuPaymentView.init))
            }
        }
        api.get("cashu/request") { request, _ in
            CashuRequestView(try paymentRequest(request.uri, payee(node)))
        }
        api.get("cashu/request/qr.svg") { request, _ in
            let text = try paymentRequest(request.uri, payee(node)).encodedA
            do {
                return CodeResponse.svg(try QREncoder.encode(Array(text.utf8), level: .medium))
            } catch { throw APIFailure(NodeError(.io("the request's code: \(error)"))) }
        }
        api.post("cashu/tokens") { request, context in
            let payee = try payee(node)
            let text = try token(in: try await APIRouter.body(request, context), request)
            let payment = try answering { () throws(NodeError) in try payee.take(text) }
            return EditedResponse(status: .created, response: CashuPaymentView(payment))
        }
    }

    /// The node's Cashu payee, or why there is none.
    static func payee(_ node: NodeAPIContext) throws(APIFailure) -> CashuPayee {
        guard let payee = node.cashu else {
            throw APIFailure(
                .notFound, code: "cashu-off",
                reason:
                    "this node takes no Cashu tokens ([payee] cashu = \"off\" in its node.toml, or its Cashu lock key not recorded yet)"
            )
        }
        return payee
    }

    /// A NUT-18 request for `?amount=` (in the unit's smallest part) of `&unit=` (sat unless
    /// said), `&memo=`: in-band (the payer's wallet shows the token back, to the camera or a
    /// till that hands it in), from the mints whose keys the wallet holds in that unit, locked
    /// to the node's key when it takes only locked tokens. `&id=` names it (random otherwise).
    static func paymentRequest(
        _ uri: URI, _ payee: CashuPayee
    ) throws(APIFailure)
        -> CashuPaymentRequest
    {
        let query = uri.queryParameters
        for name in ["amount", "unit", "memo", "id"] where query.getAll(name).count > 1 {
            throw .badRequest("\(name) is given more than once")
        }
        // Digits only, as written without a sign, spaces or leading zeros: one spelling each.
        guard let text = query["amount"].map(String.init), !text.isEmpty,
            text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), text.first != "0"
        else {
            throw .badRequest(
                "amount must be a whole number above 0 in digits alone, in the unit's smallest part"
            )
        }
        guard let amount = UInt64(text), amount <= 1 << 53 else {
            throw .badRequest("amount must be at most \(UInt64(1) << 53) (2^53)")
        }
        // As the CLI reads a unit: `USD` is usd.
        let unit = query["unit"].map { String($0).lowercased() } ?? "sat"
        let memo = query["memo"].map(String.init)
        let id =
            query["id"].map(String.init)
            ?? Hex.encode(
                (0..<8).map { _ in UInt8.random(in: 0...255) }, prefix: false)
        guard memo.map({ $0.count <= 200 }) ?? true, id.count <= 64, unit.count <= 16 else {
            throw .badRequest("memo (200), id (64) or unit (16) is too long")
        }
        let wallet = try answering { () throws(NodeError) in try payee.wallet() }
        let mints = try answering { () throws(NodeError) in
            try store {
                try wallet.store.mints().map(\.url).filter { mint in
                    try wallet.store.keysets(mint: mint).contains { $0.unit == unit }
                }
            }
        }
        guard !mints.isEmpty else {
            throw APIFailure(
                .notFound, code: "not-found",
                reason: "the wallet holds the keys of no mint issuing \(unit)")
        }
        return CashuPaymentRequest(
            id: id, amount: amount, unit: unit, mints: mints, description: memo,
            lockKey: payee.requireLock
                ? Hex.encode(wallet.lockPublicKey.compressed, prefix: false) : nil)
    }

    /// The token in a body: its text alone (text/plain), or `{"token": "cashuB…"}` (JSON).
    static func token(in bytes: [UInt8], _ request: Request) throws(APIFailure) -> String {
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/json") else {
            return String(decoding: bytes, as: UTF8.self)
        }
        struct Body: Decodable { let token: String }
        do { return try JSONDecoder().decode(Body.self, from: Data(bytes)).token } catch {
            throw .badRequest("the body must be {\"token\": \"cashuB…\"} or the token as text")
        }
    }

    private static func store<T>(_ body: () throws -> T) throws(NodeError) -> T {
        do { return try body() } catch {
            throw NodeError(.io("the Cashu store: \(error)"))
        }
    }
}
