/// The work behind the public `EIP712` functions: type checking, `encodeType`, `encodeData`,
/// with type hashes cached for the duration of one call (arrays of structs reuse them).
struct EIP712Hasher {
    let types: EIP712.Types
    private var typeHashes: [String: [UInt8]] = [:]

    init(types: EIP712.Types) {
        self.types = types
    }

    // MARK: Types

    /// `Name(type name,…)` for the primary type, then its dependencies sorted by name.
    func encodeType(_ primaryType: String) throws(EIP712.Error) -> String {
        let dependencies = try structsReachable(from: primaryType)
        let others = dependencies.filter { $0 != primaryType }.sorted {
            // Code point order, as in the EIP's reference implementation.
            $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars)
        }
        return ([primaryType] + others).map { name in
            let members = types[name] ?? []
            return name + "(" + members.map { "\($0.type) \($0.name)" }.joined(separator: ",") + ")"
        }.joined()
    }

    mutating func typeHash(_ primaryType: String) throws(EIP712.Error) -> [UInt8] {
        if let cached = typeHashes[primaryType] { return cached }
        let hash = Keccak256.hash(Array(try encodeType(primaryType).utf8))
        typeHashes[primaryType] = hash
        return hash
    }

    /// Every struct type reachable from `root` (itself included), each checked on the way.
    private func structsReachable(from root: String) throws(EIP712.Error) -> Set<String> {
        guard types[root] != nil else {
            throw EIP712.Error(kind: .unknownType(root), path: root)
        }
        var found: Set<String> = [root]
        var pending = [root]
        while let name = pending.popLast() {
            for member in try checkedMembers(of: name) {
                let type = try EIP712FieldType(
                    member.type, types: types, path: "\(name).\(member.name)")
                if let dependency = type.structName, found.insert(dependency).inserted {
                    pending.append(dependency)
                }
            }
        }
        return found
    }

    private func checkedMembers(of name: String) throws(EIP712.Error) -> [EIP712.Member] {
        guard Self.isValidName(name) else {
            throw EIP712.Error(kind: .invalidName(name), path: name)
        }
        let members = types[name] ?? []
        var seen: Set<String> = []
        for member in members {
            guard Self.isValidName(member.name) else {
                throw EIP712.Error(kind: .invalidName(member.name), path: "\(name).\(member.name)")
            }
            guard seen.insert(member.name).inserted else {
                throw EIP712.Error(kind: .duplicateMember, path: "\(name).\(member.name)")
            }
        }
        return members
    }

    /// Names that keep `encodeType` unambiguous.
    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.unicodeScalars.contains { " ()[],".unicodeScalars.contains($0) }
    }

    // MARK: Data

    mutating func hashStruct(
        _ typeName: String, value: [String: EIP712.Value], path: String
    ) throws(EIP712.Error) -> [UInt8] {
        var keccak = Keccak256()
        keccak.update(try typeHash(typeName))  // also checks every type reachable from here
        let members = types[typeName] ?? []
        if let extra = value.keys.filter({ name in !members.contains { $0.name == name } }).min() {
            throw EIP712.Error(kind: .unexpectedMember, path: "\(path).\(extra)")
        }
        for member in members {
            let memberPath = "\(path).\(member.name)"
            guard let memberValue = value[member.name] else {
                throw EIP712.Error(kind: .missingMember, path: memberPath)
            }
            let type = try EIP712FieldType(member.type, types: types, path: memberPath)
            keccak.update(try encodeField(memberValue, as: type, path: memberPath))
        }
        return keccak.finalize()
    }

    /// One 32-byte word of `encodeData`.
    private mutating func encodeField(
        _ value: EIP712.Value, as type: EIP712FieldType, path: String
    ) throws(EIP712.Error) -> [UInt8] {
        func wrongKind() -> EIP712.Error {
            EIP712.Error(kind: .wrongValueKind(expected: type.name), path: path)
        }
        func checkLength(_ actual: Int, _ expected: Int) throws(EIP712.Error) {
            guard actual == expected else {
                throw EIP712.Error(
                    kind: .wrongLength(expected: expected, actual: actual), path: path)
            }
        }
        switch (type, value) {
        case (.address, .address(let bytes)):
            try checkLength(bytes.count, 20)
            return [UInt8](repeating: 0, count: 12) + bytes
        case (.bool, .bool(let flag)):
            return Self.word(UInt128(flag ? 1 : 0))
        case (.uint(let bits), .uint(let number)):
            guard bits >= 128 || number >> bits == 0 else {
                throw EIP712.Error(kind: .outOfRange, path: path)
            }
            return Self.word(number)
        case (.uint(let bits), .uint256Word(let word)):
            try checkLength(word.count, 32)
            guard word.prefix((256 - bits) / 8).allSatisfy({ $0 == 0 }) else {
                throw EIP712.Error(kind: .outOfRange, path: path)
            }
            return word
        case (.int(let bits), .int(let number)):
            // In range when the bits above N-1 are all copies of the sign bit.
            guard bits >= 64 || number >> (bits - 1) == 0 || number >> (bits - 1) == -1 else {
                throw EIP712.Error(kind: .outOfRange, path: path)
            }
            let fill: UInt8 = number < 0 ? 0xff : 0
            let low = UInt64(bitPattern: number)
            return [UInt8](repeating: fill, count: 24)
                + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        case (.fixedBytes(let count), .fixedBytes(let bytes)):
            try checkLength(bytes.count, count)
            return bytes + [UInt8](repeating: 0, count: 32 - count)
        case (.bytes, .bytes(let bytes)):
            return Keccak256.hash(bytes)
        case (.string, .string(let text)):
            return Keccak256.hash(Array(text.utf8))
        case (.array(let element, let length), .array(let items)):
            if let length { try checkLength(items.count, length) }
            var keccak = Keccak256()
            for (index, item) in items.enumerated() {
                keccak.update(try encodeField(item, as: element, path: "\(path)[\(index)]"))
            }
            return keccak.finalize()
        case (.structure(let name), .structure(let members)):
            return try hashStruct(name, value: members, path: path)
        default:
            throw wrongKind()
        }
    }

    /// A big-endian 32-byte word holding `number`.
    private static func word(_ number: UInt128) -> [UInt8] {
        [UInt8](repeating: 0, count: 16)
            + (0..<16).map { UInt8(truncatingIfNeeded: number >> (120 - 8 * $0)) }
    }
}
