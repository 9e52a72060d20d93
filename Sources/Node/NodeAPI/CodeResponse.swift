import Hummingbird
import QR

/// An answer that carries a code, or the bytes behind one: never cached (a code is good only
/// while it is shown) and its type not sniffed. SVG scales to any screen without blur (the
/// point-of-sale page shows it); PNG is 8 pixels a module.
enum CodeResponse {
    static func svg(_ matrix: QRMatrix) -> Response {
        bytes(Array(matrix.svg().utf8), type: "image/svg+xml")
    }

    static func png(_ matrix: QRMatrix) -> Response {
        bytes(PNG.encode(matrix.rasterize(scale: 8)), type: "image/png")
    }

    static func bytes(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: type, .cacheControl: "no-store", .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
