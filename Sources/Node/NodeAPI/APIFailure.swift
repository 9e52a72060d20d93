import APIBodies
import Foundation
import Hummingbird
import NodeKit
import Tender

/// An API error as JSON: `{"error": code, "reason": what was wrong}` with its HTTP status.
/// Codes are stable for scripts; reasons are for people.
public struct APIFailure: HTTPResponseError {
    public let status: HTTPResponse.Status
    public let code: String
    public let reason: String

    public init(_ status: HTTPResponse.Status, code: String, reason: String) {
        self.status = status
        self.code = code
        self.reason = reason
    }

    static func unauthorized(_ reason: String) -> APIFailure {
        APIFailure(.unauthorized, code: "unauthorized", reason: reason)
    }

    /// A resolving step in the API's terms.
    @Sendable static func step(_ step: ResolvingStep) -> String {
        switch step {
        case .settle: "POST /api/sync"
        case .listPayments: "GET /api/payments"
        case .initialise: "`tender init` on the node's host"
        case .initialiseIssuer: "`tender issuer init` on the node's host"
        case .addMint(let url): "`tender cashu mint add \(url)` on the node's host, online"
        case .addChain(let domain):
            "add it on the node's host: tender chain add --id \(domain.chainID) --vault \(domain.vault) --rpc URL"
        case .listChains: "`tender chain list` on the node's host"
        case .startNearbyPayee: "is the payee's Bluetooth service running, its adapter in range?"
        case .stopWalletUsers: "the node, or another command, is using it"
        case .setSpendingLimits: "[[limits]] in the node's node.toml, Docs/OPERATIONS.md"
        case .deployVault: "`tender vault deploy` on the node's host"
        case .depositCollateral: "`tender issuer deposit` on the issuer's host"
        case .lockCollateral: "`tender issuer lock --lock-for SECONDS` on the issuer's host"
        case .checkChainEndpoint: "is the chain's node running? (the chain registry's endpoints)"
        case .restoreElsewhereOrReplace: "`tender restore --force` on the node's host"
        case .nameDomain: "the API pays from the home vault only"
        case .trustIssuer(let issuer): "`tender trust add \(issuer)` on the node's host"
        case .checkVault: "check the vault address in the node's chains.toml"
        case .checkChainID: "check the chain id in the node's chains.toml"
        case .nameNativeCoin: "amounts in the API are base units"
        }
    }

    static func badRequest(_ reason: String) -> APIFailure {
        APIFailure(.badRequest, code: "bad-request", reason: reason)
    }

    /// A wallet failure as the API reports it: the caller's mistake (400), a refusal by the
    /// rules (422), a payment its spending limits forbid (403), nothing by that name (404), a
    /// clash or a busy wallet (409), or the node's own trouble (500). Its amounts read as
    /// `units` reads them (base units without); what resolves it is named in the API's terms.
    init(_ error: NodeError, units: Denominations = Denominations()) {
        let status: HTTPResponse.Status =
            switch error.kind {
            case .usage: .badRequest
            case .rejected, .refusedOnChain, .refusedByPayee, .refusedEcash: .unprocessableContent
            case .overLimit: .forbidden
            case .missing: .notFound
            case .exists, .busy: .conflict
            case .noGas: .serviceUnavailable
            default: .internalServerError
            }
        self.init(
            status, code: error.code,
            reason: error.description(in: DenominatedWording(units, steps: Self.step)))
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body = try encoder.encode(["error": code, "reason": reason])
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"tender\"" }
        return Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(data: body))
        )
    }
}

/// Runs a wallet call, its failure reported as an `APIFailure`.
func answering<T>(_ body: () throws(NodeError) -> T) throws(APIFailure) -> T {
    do { return try body() } catch { throw APIFailure(error) }
}

/// `answering`, for a call that waits.
func answering<T>(_ body: () async throws(NodeError) -> T) async throws(APIFailure) -> T {
    do { return try await body() } catch { throw APIFailure(error) }
}

extension APIFailure {
    /// What a caller sent, read; a refusal as the API answers it (400, or the wallet's own
    /// answer to a request the protocol refuses).
    static func reading<T>(_ read: () throws(BodyRefusal) -> T) throws(APIFailure) -> T {
        do { return try read() } catch {
            switch error {
            case .badRequest(let reason): throw .badRequest(reason)
            case .rejected(let refusal): throw APIFailure(NodeError(.rejected(refusal)))
            }
        }
    }
}
