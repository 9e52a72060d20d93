import Hummingbird
import NodeKit
import PaymentCodes
import QR
import Tender

/// A payment request's QR code as the API serves it (`GET /api/requests/{id}/qr.svg` or
/// `qr.png`): the request's `tender:` URI in one code at level M, the code `tender request`
/// draws (Sources/CLI/TenderCLI/RequestCommand.swift), so a payer scans the same thing either way.
enum RequestCode {
    static func matrix(_ request: PaymentRequest) throws -> QRMatrix {
        do {
            return try QREncoder.encode(Array(TenderURI.encode(request).utf8), level: .medium)
        } catch {
            throw APIFailure(NodeError(.io("the request's code: \(error)")))
        }
    }

    static func svg(_ request: PaymentRequest) throws -> Response {
        CodeResponse.svg(try matrix(request))
    }

    static func png(_ request: PaymentRequest) throws -> Response {
        CodeResponse.png(try matrix(request))
    }
}
