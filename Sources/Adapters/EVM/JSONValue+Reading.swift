import BigInt
import Codecs
import Tender

/// Strict readers for JSON-RPC results. Each takes the name of what it reads, so a wrong
/// answer becomes `malformedResponse("eth_getBlockByNumber.baseFeePerGas: …")`, never a trap.
extension JSONValue {
    func field(_ key: String, of context: String) throws(EVMError) -> JSONValue {
        guard case .object(let fields) = self else {
            throw .malformedResponse("\(context): expected an object, got \(excerpt)")
        }
        guard let value = fields[key] else {
            throw .malformedResponse("\(context).\(key): missing")
        }
        return value
    }

    func string(_ context: String) throws(EVMError) -> String {
        guard case .string(let text) = self else {
            throw .malformedResponse("\(context): expected a string, got \(excerpt)")
        }
        return text
    }

    func array(_ context: String) throws(EVMError) -> [JSONValue] {
        guard case .array(let items) = self else {
            throw .malformedResponse("\(context): expected an array, got \(excerpt)")
        }
        return items
    }

    /// A JSON-RPC quantity: "0x", then hex digits with no leading zero ("0x0" for zero), at
    /// most 256 bits.
    func quantity(_ context: String) throws(EVMError) -> BigUInt {
        let text = try string(context)
        let digits = text.utf8.dropFirst(2)
        guard text.hasPrefix("0x"), !digits.isEmpty, digits.count <= 64,
            digits.count == 1 || digits.first != UInt8(ascii: "0"),
            let value = BigUInt(String(digits)!, radix: 16)
        else { throw .malformedResponse("\(context): \(excerpt) is not a hex quantity") }
        return value
    }

    func uint64(_ context: String) throws(EVMError) -> UInt64 {
        let value = try quantity(context)
        guard value <= BigUInt(UInt64.max) else {
            throw .malformedResponse("\(context): \(excerpt) does not fit 64 bits")
        }
        return UInt64(value)
    }

    /// "0x" and an even number of hex digits.
    func data(_ context: String) throws(EVMError) -> [UInt8] {
        let text = try string(context)
        guard text.hasPrefix("0x"), let bytes = try? Hex.decode(text) else {
            throw .malformedResponse("\(context): \(excerpt) is not 0x-prefixed hex data")
        }
        return bytes
    }

    func bytes32(_ context: String) throws(EVMError) -> Bytes32 {
        let bytes = try data(context)
        guard let value = try? Bytes32(bytes) else {
            throw .malformedResponse("\(context): expected 32 bytes, got \(bytes.count)")
        }
        return value
    }

    func address(_ context: String) throws(EVMError) -> Address {
        let bytes = try data(context)
        guard let value = try? Address(bytes: bytes) else {
            throw .malformedResponse(
                "\(context): expected a 20-byte address, got \(bytes.count) bytes")
        }
        return value
    }

    /// nil for JSON null.
    func optional<T>(_ read: (JSONValue) throws(EVMError) -> T) throws(EVMError) -> T? {
        if case .null = self { return nil }
        return try read(self)
    }
}
