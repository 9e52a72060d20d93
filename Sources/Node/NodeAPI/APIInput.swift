import NodeKit
import Tender

/// The API's readings of what a caller sends, each refused with a 400 that names the field.
enum APIInput {
    /// A positive amount of base units, sent as a decimal string.
    static func amount(_ text: String) throws(APIFailure) -> Amount {
        guard let amount = Amount(text), amount > 0 else {
            throw APIFailure.badRequest(
                "amount must be a positive integer of base units below 2^128 (a string), got \"\(text)\""
            )
        }
        return amount
    }

    /// An address; `field` names it in the refusal.
    static func address(_ text: String, field: String) throws(APIFailure) -> Address {
        do { return try Address(text) } catch { throw APIFailure.badRequest("\(field): \(error)") }
    }

    /// The asset sent, or the native coin (the zero address) when none was.
    static func asset(_ text: String?, field: String = "asset") throws(APIFailure) -> Address {
        guard let text else { return .zero }
        return try address(text, field: field)
    }

    /// A request id: 32 bytes of hex.
    static func requestID(_ text: String) throws(APIFailure) -> Bytes32 {
        do { return try Bytes32(hex: text) } catch {
            throw APIFailure.badRequest("request id: \(error)")
        }
    }
}
