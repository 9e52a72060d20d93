import PaymentCodes
import Tender

/// The body of `POST /api/payments`: a scanned request (`{"request": "tender:…"}`), or terms
/// (`{"to", "amount", "asset"?, "memo"?}`).
public struct NewPaymentBody: Decodable, Sendable {
    let request: String?
    let to: String?
    let amount: String?
    let asset: String?
    let memo: String?

    /// What the node is asked to pay; `request` when a scanned request fixes it all.
    public struct Terms: Sendable {
        public let payee: Address
        public let amount: Amount
        public let asset: Address
        public let memo: String
        public let request: PaymentRequest?
    }

    /// The terms `bytes` ask for, a scanned request checked as payable in `domain` at `now`.
    public static func read(
        _ bytes: [UInt8], domain: Domain, now: UInt64
    ) throws(BodyRefusal) -> Terms {
        let body = try JSONBody.decode(
            NewPaymentBody.self, from: bytes, fields: ["request", "to", "amount", "asset", "memo"])
        if let text = body.request {
            guard body.to == nil, body.amount == nil, body.asset == nil, body.memo == nil else {
                throw .badRequest("a request fixes the terms: send request alone")
            }
            let code: TenderCode
            do { code = try TenderURI.decodeAny(text) } catch {
                throw .badRequest("request: \(error)")
            }
            guard case .request(let request) = code else {
                throw .badRequest(
                    "request: a pay-me code has no amount; send to and amount instead")
            }
            do { try request.checkPayable(in: domain, now: now) } catch { throw .rejected(error) }
            return Terms(
                payee: request.payee, amount: request.amount, asset: request.asset,
                memo: request.memo, request: request)
        }
        guard let to = body.to, let amountText = body.amount else {
            throw .badRequest("send request, or to and amount")
        }
        return Terms(
            payee: try APIInput.address(to, field: "address"),
            amount: try APIInput.amount(amountText), asset: try APIInput.asset(body.asset),
            memo: body.memo ?? "", request: nil)
    }
}
