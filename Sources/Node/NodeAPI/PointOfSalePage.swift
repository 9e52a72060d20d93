import Foundation
import Hummingbird

/// The point-of-sale page, `GET /pos` (Docs/OPERATIONS.md): one HTML document with its style
/// (PointOfSaleStyle.swift) and script (PointOfSaleScript.swift) inline, so the binary stays
/// one file and the page loads nothing from anywhere. It is served without the token: it
/// holds no data and calls the API with the token its URL fragment gives it.
enum PointOfSalePage {
    static func response() -> Response {
        let nonce = makeNonce()
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: contentSecurityPolicy(nonce: nonce),
                .xContentTypeOptions: "nosniff", .cacheControl: "no-store",
                referrerPolicy: "no-referrer",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: document(nonce: nonce))))
    }

    /// Only this document's own script and style run; it talks to this node alone and shows
    /// the code as a `blob:` image (the code is fetched with the token, which `<img src>`
    /// cannot send). No frames, forms, plugins or base URL.
    static func contentSecurityPolicy(nonce: String) -> String {
        [
            "default-src 'none'", "script-src 'nonce-\(nonce)'", "style-src 'nonce-\(nonce)'",
            "img-src blob:", "connect-src 'self'", "base-uri 'none'", "form-action 'none'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    static let referrerPolicy = HTTPFields.Element.Name("Referrer-Policy")!

    static func document(nonce: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no">
        <meta name="referrer" content="no-referrer">
        <title>Tender · Point of sale</title>
        <style nonce="\(nonce)">\(PointOfSaleStyle.css)</style>
        </head>
        <body data-screen="start">
        \(PointOfSaleMarkup.body)
        <script nonce="\(nonce)">\(PointOfSaleScript.javascript)</script>
        </body>
        </html>

        """
    }

    /// 16 random bytes for each answer: an injected script could not guess them.
    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            .base64EncodedString()
    }
}
