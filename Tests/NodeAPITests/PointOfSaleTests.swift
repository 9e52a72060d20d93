import Foundation
import Hummingbird
import HummingbirdTesting
import NodeAPI
import NodeKit
import NodeTestSupport
import QR
import Tender
import TenderTestSupport
import Testing

/// The point-of-sale page and the request code it shows, through Hummingbird's router on
/// Bob's real wallet (the page in a real browser: Tests/NodeLab/pos-tests.sh).
@Suite struct PointOfSaleTests {
    let node = Node()
    static let token = String(repeating: "7", count: 64)
    static let authorized: HTTPFields = [.authorization: "Bearer \(token)"]

    func application(_ bob: Wallet) -> some ApplicationProtocol {
        let context = NodeAPIContext(
            wallets: { NodeWallets(home: bob) }, clock: node.clock,
            state: NodeState(startedAt: node.clock.now()), feed: PaymentFeed(),
            token: Self.token, syncNow: {})
        return Application(router: APIRouter.make(context))
    }

    /// A request issued through the API: its id and URI.
    static func newRequest(
        _ client: some TestClientProtocol
    ) async throws -> (
        id: String, uri: String
    ) {
        let created = try await client.execute(
            uri: "/api/requests", method: .post, headers: authorized,
            body: ByteBuffer(string: #"{"amount": "1250", "memo": "apples"}"#))
        #expect(created.status == .created)
        let request = try #require(
            try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any])
        return (
            try #require(request["requestId"] as? String), try #require(request["uri"] as? String)
        )
    }

    @Test func thePageIsServedWithoutTheTokenUnderAStrictPolicy() async throws {
        let bob = try node.wallet(node.world.bobKey)
        try await application(bob).test(.router) { client in
            let page = try await client.execute(uri: "/pos", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            for directive in [
                "default-src 'none'", "img-src blob:", "connect-src 'self'", "base-uri 'none'",
                "form-action 'none'", "frame-ancestors 'none'",
            ] {
                #expect(policy.contains(directive), "\(policy)")
            }
            #expect(!policy.contains("unsafe"))
            // The one script and the one style run by the nonce the policy names.
            let nonce = try #require(
                policy.components(separatedBy: "script-src 'nonce-").dropFirst().first?
                    .components(separatedBy: "'").first)
            #expect(nonce.count >= 22)
            let html = String(buffer: page.body)
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.contains("<script nonce=\"\(nonce)\">"))
            #expect(html.contains("<style nonce=\"\(nonce)\">"))
            #expect(html.components(separatedBy: "<script").count == 2)
            #expect(html.components(separatedBy: "<style").count == 2)
            // Nothing loaded from elsewhere, no inline handlers or styles the policy would block.
            for forbidden in ["http://", "https://", " onclick=", " style=\"", "src=\"/"] {
                #expect(!html.contains(forbidden), "the page has \(forbidden)")
            }
            // A fresh nonce for every answer.
            let again = try await client.execute(uri: "/pos", method: .get)
            #expect(again.headers[.contentSecurityPolicy] != policy)
        }
    }

    @Test func theCodeNeedsTheTokenAndARequestThisNodeIssued() async throws {
        let bob = try node.wallet(node.world.bobKey)
        try await application(bob).test(.router) { client in
            let (id, _) = try await Self.newRequest(client)
            for format in ["svg", "png"] {
                let uri = "/api/requests/\(id)/qr.\(format)"
                for headers: HTTPFields in [[:], [.authorization: "Bearer wrong"]] {
                    let refused = try await client.execute(uri: uri, method: .get, headers: headers)
                    #expect(refused.status == .unauthorized, "\(uri) with \(headers)")
                }
                let unknown = try await client.execute(
                    uri: "/api/requests/0x\(String(repeating: "ab", count: 32))/qr.\(format)",
                    method: .get, headers: Self.authorized)
                #expect(unknown.status == .notFound)
                let malformed = try await client.execute(
                    uri: "/api/requests/tea/qr.\(format)", method: .get, headers: Self.authorized)
                #expect(malformed.status == .badRequest)
            }
        }
    }

    @Test func theSVGCodeIsTheCLIsAndScansBackToTheRequestURI() async throws {
        let bob = try node.wallet(node.world.bobKey)
        try await application(bob).test(.router) { client in
            let (id, uri) = try await Self.newRequest(client)
            let answer = try await client.execute(
                uri: "/api/requests/\(id)/qr.svg", method: .get, headers: Self.authorized)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "image/svg+xml")
            let svg = String(buffer: answer.body)
            // The very code `tender request --qr svg` writes (Sources/CLI/TenderCLI/RequestCommand.swift).
            #expect(svg == (try QREncoder.encode(Array(uri.utf8), level: .medium).svg()))
            let pixels = try #require(Self.rasterize(svg, scale: 4))
            #expect(QRScanner().scan(pixels) == [Array(uri.utf8)])
        }
    }

    @Test func thePNGCodeScansBackToTheRequestURI() async throws {
        let bob = try node.wallet(node.world.bobKey)
        try await application(bob).test(.router) { client in
            let (id, uri) = try await Self.newRequest(client)
            let answer = try await client.execute(
                uri: "/api/requests/\(id)/qr.png", method: .get, headers: Self.authorized)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "image/png")
            let image = try PNG.decode(Array(buffer: answer.body))
            #expect(QRScanner().scan(image) == [Array(uri.utf8)])
        }
    }

    /// Draws the SVG's path (runs `M x y h n v1 h-n z` in module units, on the white square of
    /// its `viewBox`) into pixels: the SVG as a screen shows it, read independently of the
    /// matrix it came from.
    static func rasterize(_ svg: String, scale: Int) -> GreyImage? {
        guard
            let box = svg.components(separatedBy: "viewBox=\"0 0 ").dropFirst().first?
                .split(separator: " ").first.flatMap({ Int($0) }),
            let path = svg.components(separatedBy: " d=\"").dropFirst().first?
                .components(separatedBy: "\"").first
        else { return nil }
        var image = GreyImage(width: box * scale, height: box * scale)
        for run in path.split(separator: "M") {
            let numbers = run.split(whereSeparator: { " hvz".contains($0) }).compactMap { Int($0) }
            guard numbers.count >= 3 else { return nil }
            let (x, y, length) = (numbers[0], numbers[1], numbers[2])
            for py in y * scale..<(y + 1) * scale {
                for px in x * scale..<(x + length) * scale { image[px, py] = 0 }
            }
        }
        return image
    }
}
