import BigInt
import Codecs
import Tender
import Testing

@testable import EVM

/// Our ABI encoding against eth-abi's, selectors against eth-utils', and strict decoding.
@Suite struct ABITests {
    static let address = try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3")

    @Test(.enabled(if: EVMReferee.shouldRun)) func selectorsAreTheReferees() throws {
        let signatures = [
            "redeem()", "deposit(address,uint256)", "extendLock(uint256)",
            "withdraw(address,uint256)",
            "collateral(address,address)", "transfer(address,uint256)",
            VaultCalls.submitFraudProofSignature,
        ]
        let theirs = try #require(try EVMReferee.run("selector", signatures) as? [String])
        #expect(signatures.map { Hex.encode(ABI.selector($0)) } == theirs)
        #expect(Hex.encode(ABI.selector("redeem()")) == "0xbe040fb0")  // Docs/VAULT.md
        #expect(
            Hex.encode(ABI.selector(VaultCalls.submitFraudProofSignature)) == "0xa573b92c")
    }

    static let tuples: [[ABIValue]] = [
        [.address(address), .uint(12345)],
        [.uint((Wei(1) << 256) - 1), .bool(true), .bool(false), .bytes32(.zero)],
        [.bytes([])],
        [.bytes(Array(1...33)), .uint(7), .bytes(Array(repeating: 0xee, count: 64))],
        [.address(.zero), .bytes([0xbe, 0x04]), .bytes32(try! Bytes32(Array(0..<32)))],
        // A fraud proof's shape: a static word, then structs holding arrays of words and of
        // static structs (Docs/VAULT.md, submitFraudProof).
        [
            .bytes32(.zero),
            .tuple([
                .array([.bytes32(try! Bytes32(Array(0..<32)))]),
                .array([
                    .tuple([.address(address), .uint(7)]), .tuple([.address(.zero), .uint(9)]),
                ]),
                .bytes32(.zero), .uint(27),
            ]),
            .tuple([
                .array([.uint(1), .uint(2)]), .array([.tuple([.address(address), .uint(0)])]),
            ]),
        ],
        [.array([.uint(5)]), .tuple([.uint(1), .bool(true)]), .bytes([1])],
    ]

    /// Solidity's name of a value's type.
    static func typeName(_ value: ABIValue) -> String {
        switch value {
        case .address: "address"
        case .uint: "uint256"
        case .bytes32: "bytes32"
        case .bool: "bool"
        case .bytes: "bytes"
        case .array(let elements): typeName(elements[0]) + "[]"
        case .tuple(let fields): "(" + fields.map(typeName).joined(separator: ",") + ")"
        }
    }

    static func json(_ value: ABIValue) -> Any {
        switch value {
        case .address(let a): a.checksummed
        case .uint(let n): String(n)
        case .bytes32(let b): b.hex
        case .bool(let f): f
        case .bytes(let b): Hex.encode(b)
        case .array(let elements): elements.map(json)
        case .tuple(let fields): fields.map(json)
        }
    }

    static func referee(_ values: [ABIValue]) -> [String: Any] {
        ["types": values.map(typeName), "values": values.map(json)]
    }

    @Test(.enabled(if: EVMReferee.shouldRun)) func encodingIsTheReferees() throws {
        let theirs = try #require(
            try EVMReferee.run("abi", Self.tuples.map(Self.referee)) as? [String])
        #expect(Self.tuples.map { Hex.encode(ABI.encode($0)) } == theirs)
    }

    @Test(
        arguments: tuples.indices.filter { index in
            !tuples[index].contains {
                if case .array = $0 { true } else if case .tuple = $0 { true } else { false }
            }
        }) func decodesWhatItEncodes(_ index: Int) throws
    {
        let values = Self.tuples[index]
        let types: [ABIType] = values.map {
            switch $0 {
            case .address: .address
            case .uint: .uint256
            case .bytes32: .bytes32
            case .bool: .bool
            case .bytes: .bytes
            case .array, .tuple: .bytes  // not decoded: the vault returns no arrays
            }
        }
        #expect(try ABI.decode(types, from: ABI.encode(values)) == values)
    }

    @Test func refusesDirtyOrShortData() {
        var word = [UInt8](repeating: 0, count: 32)
        word[31] = 2
        #expect(throws: ABIError.self) { try ABI.decode([.bool], from: word) }
        word[0] = 1
        #expect(throws: ABIError.self) { try ABI.decode([.address], from: word) }
        #expect(throws: ABIError.self) { try ABI.decode([.uint256], from: Array(word.prefix(31))) }
        // A bytes offset pointing past the end, and a length running past it.
        #expect(throws: ABIError.self) { try ABI.decode([.bytes], from: ABI.encode([.uint(64)])) }
        #expect(throws: ABIError.self) {
            try ABI.decode([.bytes], from: ABI.encode([.uint(32), .uint(1000)]))
        }
    }

    @Test func revertReasonsAreErrorString() {
        // Error("nothing to deposit"), as Vault.vy's assert emits it.
        let data = ABI.call("Error(string)", [.bytes(Array("nothing to deposit".utf8))])
        #expect(ABI.revertReason(data) == "nothing to deposit")
        #expect(ABI.revertReason(ABI.call("Panic(uint256)", [.uint(0x11)])) == nil)
        #expect(ABI.revertReason([]) == nil)
    }
}
