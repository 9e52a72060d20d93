import BigInt
import Codecs
import Tender

/// The few Solidity ABI types the vault's calls and events use (Docs/EVM.md, "ABI").
public enum ABIValue: Sendable, Hashable {
    case address(Address)
    case uint(Wei)
    case bytes32(Bytes32)
    case bool(Bool)
    /// Dynamic `bytes`.
    case bytes([UInt8])
    /// `T[]` of the given elements (all of one type: the caller's to keep so).
    case array([ABIValue])
    /// A struct: dynamic when any of its fields is.
    case tuple([ABIValue])

    var isDynamic: Bool {
        switch self {
        case .bytes, .array: true
        case .tuple(let fields): fields.contains(where: \.isDynamic)
        case .address, .uint, .bytes32, .bool: false
        }
    }
}

public enum ABIType: Sendable, Hashable {
    case address, uint256, bytes32, bool, bytes
}

/// Why ABI data could not be read.
public struct ABIError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = "ABI: " + description }
}

public enum ABI {
    /// The first four bytes of keccak256 of a canonical signature, e.g. `transfer(address,uint256)`.
    public static func selector(_ signature: String) -> [UInt8] {
        Array(Keccak256.hash(Array(signature.utf8)).prefix(4))
    }

    /// An event's first topic: keccak256 of its canonical signature.
    public static func eventTopic(_ signature: String) -> Bytes32 {
        try! Bytes32(Keccak256.hash(Array(signature.utf8)))
    }

    /// Calldata: the selector, then the arguments encoded as a tuple.
    public static func call(_ signature: String, _ arguments: [ABIValue] = []) -> [UInt8] {
        selector(signature) + encode(arguments)
    }

    /// Head/tail encoding: static values in place, dynamic ones as offsets to their tails.
    /// A uint above 2^256 - 1 is a caller's bug (values come from Wei arithmetic it controls).
    public static func encode(_ values: [ABIValue]) -> [UInt8] {
        let headSize = values.reduce(0) { $0 + ($1.isDynamic ? 32 : inPlace($1).count) }
        var head: [UInt8] = []
        var tail: [UInt8] = []
        for value in values {
            if value.isDynamic {
                head += word(headSize + tail.count)
                tail += inPlace(value)
            } else {
                head += inPlace(value)
            }
        }
        return head + tail
    }

    /// A value's own encoding: in the head when static, in the tail when dynamic.
    private static func inPlace(_ value: ABIValue) -> [UInt8] {
        switch value {
        case .address(let address): return [UInt8](repeating: 0, count: 12) + address.bytes
        case .uint(let number):
            guard let word = number.word else { preconditionFailure("uint256 overflow") }
            return word
        case .bytes32(let bytes): return bytes.bytes
        case .bool(let flag): return word(flag ? 1 : 0)
        case .bytes(let bytes):
            return word(bytes.count) + bytes
                + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
        case .array(let elements): return word(elements.count) + encode(elements)
        case .tuple(let fields): return encode(fields)
        }
    }

    /// Decodes a tuple of `types` (a call's return data, an event's data), strictly: each
    /// word must hold a value of its type (no dirty high bits), offsets must stay inside.
    public static func decode(_ types: [ABIType], from data: [UInt8]) throws(ABIError) -> [ABIValue]
    {
        guard data.count >= 32 * types.count else {
            throw ABIError("\(data.count) bytes for \(types.count) values")
        }
        var values: [ABIValue] = []
        for (index, type) in types.enumerated() {
            let slot = Array(data[32 * index..<32 * index + 32])
            values.append(try decodeValue(type, slot: slot, data: data, index: index))
        }
        return values
    }

    private static func decodeValue(
        _ type: ABIType, slot: [UInt8], data: [UInt8], index: Int
    ) throws(ABIError) -> ABIValue {
        switch type {
        case .uint256: return .uint(Wei(bigEndian: slot))
        case .bytes32: return .bytes32(try! Bytes32(slot))
        case .address:
            guard slot.prefix(12).allSatisfy({ $0 == 0 }) else {
                throw ABIError("value \(index) is not an address (high bytes set)")
            }
            return .address(try! Address(bytes: slot.suffix(20)))
        case .bool:
            guard slot.prefix(31).allSatisfy({ $0 == 0 }), slot[31] <= 1 else {
                throw ABIError("value \(index) is not a bool")
            }
            return .bool(slot[31] == 1)
        case .bytes:
            let offset = try smallInteger(slot, index: index)
            guard offset <= data.count - 32 else {
                throw ABIError("value \(index): offset out of range")
            }
            let length = try smallInteger(Array(data[offset..<offset + 32]), index: index)
            guard length <= data.count - offset - 32 else {
                throw ABIError("value \(index): \(length) bytes run past the data")
            }
            return .bytes(Array(data[offset + 32..<offset + 32 + length]))
        }
    }

    /// A word used as an offset or length: must fit comfortably in an Int.
    private static func smallInteger(_ word: [UInt8], index: Int) throws(ABIError) -> Int {
        guard word.prefix(28).allSatisfy({ $0 == 0 }) else {
            throw ABIError("value \(index): offset or length too large")
        }
        return word.suffix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    private static func word(_ value: Int) -> [UInt8] { Wei(value).word! }

    /// The reason of a revert with Solidity's/Vyper's `Error(string)`, nil for other data.
    static func revertReason(_ data: [UInt8]) -> String? {
        guard data.count >= 4, data.prefix(4) == selector("Error(string)")[...],
            let values = try? decode([.bytes], from: Array(data.dropFirst(4))),
            case .bytes(let text) = values.first
        else { return nil }
        return String(validating: text, as: UTF8.self)
    }
}

extension ABIValue {
    /// Accessors for decoded values: nil when the value is of another type.
    public var uint: Wei? { if case .uint(let value) = self { value } else { nil } }
    public var address: Address? { if case .address(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var bytes: [UInt8]? { if case .bytes(let value) = self { value } else { nil } }
}
