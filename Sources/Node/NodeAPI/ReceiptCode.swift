import APIBodies
import Hummingbird
import NodeKit
import QR
import Tender

/// The receipt this node signed for a payment it accepted (`GET /api/receipts/{id}`, the
/// request's id), as the envelope or as the code a payer's camera reads: one binary code, the
/// code `tender receive --qr` shows (Sources/CLI/TenderCLI/ReceiveCommand.swift). The point-of-sale
/// page shows it once paid, for a payer who paid through the camera and has no receipt yet.
enum ReceiptCode {
    /// The stored receipt for `id`, from whichever of the node's wallets accepted it.
    static func receipt(_ id: String, _ node: NodeAPIContext) throws -> [UInt8] {
        let requestID = try APIFailure.reading { () throws(BodyRefusal) in
            try APIInput.requestID(id)
        }
        return try answering { () throws(NodeError) in
            for wallet in try node.wallets().all {
                if let payment = try wallet.incomingPayment(requestID) { return payment.receipt }
            }
            throw NodeError(.missing("no payment accepted for request \(id)"))
        }
    }

    static func envelope(_ id: String, _ node: NodeAPIContext) throws -> Response {
        CodeResponse.bytes(try receipt(id, node), type: "application/octet-stream")
    }

    static func svg(_ id: String, _ node: NodeAPIContext) throws -> Response {
        CodeResponse.svg(try matrix(receipt(id, node)))
    }

    static func png(_ id: String, _ node: NodeAPIContext) throws -> Response {
        CodeResponse.png(try matrix(receipt(id, node)))
    }

    private static func matrix(_ receipt: [UInt8]) throws -> QRMatrix {
        do { return try QREncoder.encode(receipt) } catch {
            throw APIFailure(NodeError(.io("the receipt's code: \(error)")))
        }
    }
}
