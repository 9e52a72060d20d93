import CashuStore
import Codecs
import Foundation
import Hummingbird
import NodeKit

/// Cashu through the API (Docs/OPERATIONS.md): what the wallet holds, its payments, and a
/// token handed in (a till that pastes or scans it itself), taken offline as the camera
/// takes one.
enum CashuRoutes {
    static func add(to api: RouterGroup<APIRequestContext>, _ node: NodeAPIContext) {
        api.get("cashu/balance") { _, _ in
            let payee = try payee(node)
            return try answering { () throws(NodeError) in
                CashuBalancesView(
                    lockKey: Hex.encode(payee.wallet.lockPublicKey.compressed, prefix: false),
                    balances: try store { try payee.wallet.store.balances() }.map(
                        CashuBalanceView.init))
            }
        }
        api.get("cashu/payments") { _, _ in
            let payee = try payee(node)
            return try answering { () throws(NodeError) in
                CashuPaymentsView(
                    payments: try store { try payee.wallet.store.payments() }.reversed().map(
                        CashuPaymentView.init))
            }
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
