/// EIP-712 typed structured data hashing, generic over any set of struct types.
///
/// Rules:
/// - Types are checked as they are reached: every struct reachable from the primary type must
///   exist, have uniquely named members, and use canonical type names (`uint256`, not `uint`).
/// - Values are checked against their types, strictly: each member present exactly once, no
///   extra members, the case matching the type (`.fixedBytes` for bytes32, `.bytes` for bytes),
///   lengths and ranges exact. Errors name the member path, e.g. `Transfer.outputs[1].amount`.
/// - Recursive struct types are allowed, as in the EIP; a value is finite, so hashing ends.
///
/// This is the readable reference; hot-path encoders for fixed types are tested against it.
public enum EIP712 {
    /// One member of a struct type, e.g. `Member(name: "amount", type: "uint128")`.
    public struct Member: Hashable, Sendable {
        public let name: String
        public let type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    /// Struct name → members in declaration order, e.g.
    /// `"Transfer": [("inputs", "bytes32[]"), ("outputs", "Output[]")]`.
    public typealias Types = [String: [Member]]

    /// A value to encode; which case fits which type is listed on each case.
    public indirect enum Value: Hashable, Sendable {
        /// `address`: 20 bytes.
        case address([UInt8])
        /// Any `uintN`, checked against N's range.
        case uint(UInt128)
        /// A raw 32-byte big-endian word, for uint values beyond UInt128 (checked against N).
        case uint256Word([UInt8])
        /// Any `intN`, two's complement sign-extended (checked against N's range).
        case int(Int64)
        case bool(Bool)
        /// `bytesN` with N = count (1...32), right-padded with zeros in encoding.
        case fixedBytes([UInt8])
        /// Dynamic `bytes`, encoded as keccak of its content.
        case bytes([UInt8])
        /// `string`, encoded as keccak of its UTF-8.
        case string(String)
        /// `T[]` or `T[k]`: keccak of the concatenated encodings of the elements.
        case array([Value])
        /// A struct value: member name → value.
        case structure([String: Value])
    }

    /// `Primary(type name,…)` followed by every referenced struct type, sorted by name.
    public static func encodeType(
        _ primaryType: String, types: Types
    ) throws(EIP712.Error) -> String {
        try EIP712Hasher(types: types).encodeType(primaryType)
    }

    /// keccak256(encodeType(primaryType)).
    public static func typeHash(
        _ primaryType: String, types: Types
    ) throws(EIP712.Error) -> [UInt8] {
        var hasher = EIP712Hasher(types: types)
        return try hasher.typeHash(primaryType)
    }

    /// keccak256(typeHash ‖ encodeData(value)).
    public static func hashStruct(
        _ primaryType: String, value: [String: Value], types: Types
    ) throws(EIP712.Error) -> [UInt8] {
        var hasher = EIP712Hasher(types: types)
        return try hasher.hashStruct(primaryType, value: value, path: primaryType)
    }

    /// keccak256(0x19 0x01 ‖ domainSeparator ‖ structHash): the digest that gets signed.
    public static func digest(domainSeparator: [UInt8], structHash: [UInt8]) -> [UInt8] {
        var keccak = Keccak256()
        keccak.update([0x19, 0x01])
        keccak.update(domainSeparator)
        keccak.update(structHash)
        return keccak.finalize()
    }

    /// Convenience: hashStruct of the "EIP712Domain" type in `types`, then digest.
    public static func digest(
        primaryType: String, message: [String: Value], domain: [String: Value], types: Types
    ) throws(EIP712.Error) -> [UInt8] {
        var hasher = EIP712Hasher(types: types)
        let domainSeparator = try hasher.hashStruct(
            domainTypeName, value: domain, path: domainTypeName)
        let structHash = try hasher.hashStruct(primaryType, value: message, path: primaryType)
        return digest(domainSeparator: domainSeparator, structHash: structHash)
    }

    static let domainTypeName = "EIP712Domain"
}
