import Codecs
import Testing

@Suite struct EIP712ErrorTests {
    static let transferTypes: EIP712.Types = [
        "Transfer": [
            .init(name: "inputs", type: "bytes32[]"), .init(name: "outputs", type: "Output[]"),
        ],
        "Output": [.init(name: "owner", type: "address"), .init(name: "amount", type: "uint128")],
    ]

    static func output(amount: EIP712.Value = .uint(1)) -> EIP712.Value {
        .structure(["owner": .address([UInt8](repeating: 0x11, count: 20)), "amount": amount])
    }

    static func transferError(_ value: [String: EIP712.Value]) -> EIP712.Error? {
        error { _ = try EIP712.hashStruct("Transfer", value: value, types: transferTypes) }
    }

    static func error(_ body: () throws -> Void) -> EIP712.Error? {
        do {
            try body()
            return nil
        } catch let error as EIP712.Error {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    static func typeError(_ members: [EIP712.Member], extra: EIP712.Types = [:]) -> EIP712.Error? {
        let types = extra.merging(["T": members]) { $1 }
        return error { _ = try EIP712.encodeType("T", types: types) }
    }

    @Test func unknownTypes() {
        #expect(
            Self.error { _ = try EIP712.typeHash("Nope", types: Self.transferTypes) }
                == .init(kind: .unknownType("Nope"), path: "Nope"))
        #expect(
            Self.typeError([.init(name: "x", type: "Foo")])
                == .init(kind: .unknownType("Foo"), path: "T.x"))
        #expect(
            Self.typeError([.init(name: "x", type: "Foo[]")])
                == .init(kind: .unknownType("Foo"), path: "T.x"))
    }

    @Test func invalidTypeNames() {
        for bad in [
            "uint", "uint7", "uint264", "uint0", "uint08", "int", "int9", "bytes0", "bytes33",
            "bytes032", "uint256[0]", "uint256[01]", "uint256[x]", "uint256[-1]", "address]",
        ] {
            #expect(
                Self.typeError([.init(name: "x", type: bad)])
                    == .init(kind: .invalidType(bad), path: "T.x"))
        }
        // A struct may not take an atomic type's name.
        #expect(
            Self.typeError([.init(name: "x", type: "uint256")], extra: ["uint256": []])
                == .init(kind: .invalidType("uint256"), path: "T.x"))
    }

    @Test func invalidNamesAndDuplicateMembers() {
        #expect(
            Self.typeError([.init(name: "a b", type: "bool")])
                == .init(kind: .invalidName("a b"), path: "T.a b"))
        #expect(
            Self.typeError([.init(name: "", type: "bool")])
                == .init(kind: .invalidName(""), path: "T."))
        #expect(
            Self.typeError([.init(name: "a", type: "bool"), .init(name: "a", type: "uint8")])
                == .init(kind: .duplicateMember, path: "T.a"))
        #expect(
            Self.typeError([.init(name: "x", type: "S(")], extra: ["S(": []])
                == .init(kind: .invalidName("S("), path: "S("))
    }

    @Test func missingAndUnexpectedMembers() {
        #expect(
            Self.transferError(["inputs": .array([])])
                == .init(kind: .missingMember, path: "Transfer.outputs"))
        #expect(
            Self.transferError([
                "inputs": .array([]),
                "outputs": .array([.structure(["owner": .address(Array(repeating: 0, count: 20))])]
                ),
            ]) == .init(kind: .missingMember, path: "Transfer.outputs[0].amount"))
        #expect(
            Self.transferError(["inputs": .array([]), "outputs": .array([]), "memo": .string("hi")])
                == .init(kind: .unexpectedMember, path: "Transfer.memo"))
    }

    @Test func wrongValueKinds() {
        #expect(
            Self.transferError([
                "inputs": .array([.bytes(Array(repeating: 0, count: 32))]), "outputs": .array([]),
            ])
                == .init(kind: .wrongValueKind(expected: "bytes32"), path: "Transfer.inputs[0]"))
        #expect(
            Self.transferError([
                "inputs": .fixedBytes(Array(repeating: 0, count: 32)), "outputs": .array([]),
            ])
                == .init(kind: .wrongValueKind(expected: "bytes32[]"), path: "Transfer.inputs"))
        #expect(
            Self.transferError([
                "inputs": .array([]), "outputs": .array([Self.output(amount: .int(1))]),
            ])
                == .init(
                    kind: .wrongValueKind(expected: "uint128"), path: "Transfer.outputs[0].amount"))
        #expect(
            Self.transferError(["inputs": .array([]), "outputs": .array([.uint(1)])])
                == .init(kind: .wrongValueKind(expected: "Output"), path: "Transfer.outputs[0]"))
    }

    @Test func outOfRange() {
        let max128 = Self.output(amount: .uint(.max))
        let over128 = Self.output(
            amount: .uint256Word(
                h("00000000000000000000000000000001" + String(repeating: "00", count: 16))))
        #expect(Self.transferError(["inputs": .array([]), "outputs": .array([max128])]) == nil)
        #expect(
            Self.transferError(["inputs": .array([]), "outputs": .array([max128, over128])])
                == .init(kind: .outOfRange, path: "Transfer.outputs[1].amount"))

        func check(_ type: String, _ value: EIP712.Value) -> EIP712.Error? {
            let types: EIP712.Types = ["T": [.init(name: "v", type: type)]]
            return Self.error { _ = try EIP712.hashStruct("T", value: ["v": value], types: types) }
        }
        let outOfRange = EIP712.Error(kind: .outOfRange, path: "T.v")
        #expect(check("uint8", .uint(255)) == nil)
        #expect(check("uint8", .uint(256)) == outOfRange)
        #expect(check("uint64", .uint(UInt128(UInt64.max) + 1)) == outOfRange)
        #expect(check("uint256", .uint256Word(Array(repeating: 0xff, count: 32))) == nil)
        #expect(
            check("uint248", .uint256Word([0x01] + Array(repeating: 0, count: 31))) == outOfRange)
        #expect(check("int8", .int(127)) == nil)
        #expect(check("int8", .int(-128)) == nil)
        #expect(check("int8", .int(128)) == outOfRange)
        #expect(check("int8", .int(-129)) == outOfRange)
        #expect(check("int64", .int(.min)) == nil)
        #expect(check("int256", .int(.min)) == nil)
    }

    @Test func wrongLengths() {
        func check(_ type: String, _ value: EIP712.Value) -> EIP712.Error.Kind? {
            let types: EIP712.Types = ["T": [.init(name: "v", type: type)]]
            return Self.error { _ = try EIP712.hashStruct("T", value: ["v": value], types: types) }?
                .kind
        }
        #expect(
            check("address", .address(Array(repeating: 0, count: 19)))
                == .wrongLength(expected: 20, actual: 19))
        #expect(
            check("bytes32", .fixedBytes(Array(repeating: 0, count: 31)))
                == .wrongLength(expected: 32, actual: 31))
        #expect(
            check("uint256", .uint256Word(Array(repeating: 0, count: 33)))
                == .wrongLength(expected: 32, actual: 33))
        #expect(check("bool[2]", .array([.bool(true)])) == .wrongLength(expected: 2, actual: 1))
        #expect(check("bool[2]", .array([.bool(true), .bool(false)])) == nil)
    }

    @Test func dependenciesAreSortedAndRecursionIsAllowed() throws {
        let types: EIP712.Types = [
            "Z": [.init(name: "b", type: "B"), .init(name: "a", type: "A[2]")],
            "B": [.init(name: "a", type: "A"), .init(name: "next", type: "B[]")],
            "A": [.init(name: "x", type: "uint8")],
        ]
        #expect(
            try EIP712.encodeType("Z", types: types) == "Z(B b,A[2] a)A(uint8 x)B(A a,B[] next)")
        #expect(try EIP712.encodeType("B", types: types) == "B(A a,B[] next)A(uint8 x)")
    }

    @Test func descriptionsNamePathNotValue() {
        let error = EIP712.Error(kind: .outOfRange, path: "Transfer.outputs[1].amount")
        #expect(
            error.description
                == "EIP-712: number out of range for its type at Transfer.outputs[1].amount")
        let kind = EIP712.Error(kind: .wrongValueKind(expected: "bytes32"), path: "Note.serial")
        #expect(kind.description.contains("bytes32") && kind.description.contains("Note.serial"))
    }
}
