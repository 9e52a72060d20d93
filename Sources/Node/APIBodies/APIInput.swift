import Tender

/// The API's readings of what a caller sends, each refused naming the field (a 400).
public enum APIInput {
    /// A positive amount of base units, sent as a decimal string.
    public static func amount(_ text: String) throws(BodyRefusal) -> Amount {
        guard let amount = Amount(text), amount > 0 else {
            throw .badRequest(
                "amount must be a positive integer of base units below 2^128 (a string), got \"\(text)\""
            )
        }
        return amount
    }

    /// An address; `field` names it in the refusal.
    public static func address(_ text: String, field: String) throws(BodyRefusal) -> Address {
        do { return try Address(text) } catch { throw .badRequest("\(field): \(error)") }
    }

    /// The asset sent, or the native coin (the zero address) when none was.
    public static func asset(
        _ text: String?, field: String = "asset"
    ) throws(BodyRefusal) -> Address {
        guard let text else { return .zero }
        return try address(text, field: field)
    }

    /// A request id: 32 bytes of hex.
    public static func requestID(_ text: String) throws(BodyRefusal) -> Bytes32 {
        do { return try Bytes32(hex: text) } catch {
            throw .badRequest("request id: \(error)")
        }
    }
}
