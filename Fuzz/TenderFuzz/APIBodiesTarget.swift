import APIBodies
import PaymentCodes
import Tender

/// The JSON bodies the node's API takes (`POST /api/requests`, `POST /api/payments`), read
/// as the server reads them, before anything is done with them.
enum APIBodiesTarget {
    static let apiBodies = FuzzTarget(
        name: "api-bodies",
        summary:
            "POST /api/requests and /api/payments bodies read as the server does; what is taken is within bounds",
        run: check, seeds: seeds)

    static let domain = Domain(
        chainID: 31337, vault: try! Address(String(repeating: "5a", count: 20)))
    static let now: UInt64 = 1_800_000_000
    static let longestLifetime: UInt64 = 86_400

    static func check(_ bytes: [UInt8]) {
        do {
            let terms = try NewRequestBody.read(bytes, longestLifetime: longestLifetime)
            require(terms.amount > 0, "a request body of amount 0 was taken")
            require(
                (1...longestLifetime).contains(terms.lifetime),
                "a request body living \(terms.lifetime) s was taken")
        } catch {
            require(!error.description.isEmpty, "a request body refused without a reason")
        }
        do {
            let terms = try NewPaymentBody.read(bytes, domain: domain, now: now)
            require(terms.amount > 0, "a payment body of amount 0 was taken")
            if let request = terms.request {
                require(
                    request.payee == terms.payee && request.amount == terms.amount
                        && request.asset == terms.asset && request.memo == terms.memo,
                    "a scanned request's terms were not the payment's")
                require(request.expiry > now, "an expired request was taken")
            }
        } catch {
            require(!error.description.isEmpty, "a payment body refused without a reason")
        }
    }

    @Sendable static func seeds() -> [[UInt8]] {
        let payee = "0x" + String(repeating: "ab", count: 20)
        let request = try! PaymentRequest(
            id: try! Bytes32([UInt8](repeating: 7, count: 32)),
            payee: try! Address(payee), amount: 2_500, asset: .zero, memo: "tea",
            expiry: now + 600, domain: domain)
        return [
            #"{"amount": "1500", "memo": "tea"}"#,
            #"{"amount":"1","asset":"\#(payee)","memo":"","expiresIn":60}"#,
            #"{"to":"\#(payee)","amount":"10","memo":"x"}"#,
            #"{"request":"\#(TenderURI.encode(request))"}"#,
        ].map { Array($0.utf8) }
    }
}
