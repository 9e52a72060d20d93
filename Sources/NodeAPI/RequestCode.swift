import Hummingbird
import NodeKit
import PaymentCodes
import QR
import Tender

/// A payment request's QR code as the API serves it (`GET /api/requests/{id}/qr.svg` or
/// `qr.png`): the request's `tender:` URI in one code at level M, the code `tender request`
/// draws (Sources/tender/RequestCommand.swift), so a payer scans the same thing either way.
enum RequestCode {
    static func matrix(_ request: PaymentRequest) throws -> QRMatrix {
        do {
            return try QREncoder.encode(Array(TenderURI.encode(request).utf8), level: .medium)
        } catch {
            throw APIFailure(NodeError(.io("the request's code: \(error)")))
        }
    }

    /// SVG scales to any screen without blur: the point-of-sale page shows this one.
    static func svg(_ request: PaymentRequest) throws -> Response {
        image(Array(try matrix(request).svg().utf8), type: "image/svg+xml")
    }

    static func png(_ request: PaymentRequest) throws -> Response {
        image(PNG.encode(try matrix(request).rasterize(scale: 8)), type: "image/png")
    }

    /// An answer of `type` that is never cached (a code is only good while it is shown).
    static func image(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-store", .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
