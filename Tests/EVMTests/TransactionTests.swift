import BigInt
import ChainTestSupport
import Codecs
import Foundation
import Secp256k1
import Tender
import Testing

@testable import EVM

/// EIP-1559 transactions signed by us and by eth-account (the referee): byte-equal raw
/// transactions and hashes, then read back.
@Suite(.enabled(if: EVMReferee.shouldRun)) struct TransactionTests {
    static let recipient = try! Address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
    static let otherKey = try! PrivateKey(
        bytes: bytes("59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"))

    static let cases: [(String, PrivateKey, Transaction)] = [
        (
            "plain transfer", devKey,
            Transaction(
                chainID: 31337, nonce: 0,
                fees: Fees(maxPriorityFeePerGas: .gwei, maxFeePerGas: 2 * .gwei),
                gas: 21_000, to: recipient, value: Wei(10).power(18))
        ),
        (
            "contract creation", devKey,
            Transaction(
                chainID: 31337, nonce: 7,
                fees: Fees(maxPriorityFeePerGas: 0, maxFeePerGas: 875_000_000),
                gas: 200_000, to: nil, data: bytes("600a600c600039600a6000f3602a60005260206000f3"))
        ),
        (
            "call with data", otherKey,
            Transaction(
                chainID: 1, nonce: 1_000_000,
                fees: Fees(maxPriorityFeePerGas: 3, maxFeePerGas: 1_000_000_007),
                gas: 90_000, to: recipient, value: 0,
                data: ABI.call("transfer(address,uint256)", [.address(recipient), .uint(12345)]))
        ),
        (
            "big values", otherKey,
            Transaction(
                chainID: UInt64(UInt32.max) + 5, nonce: UInt64.max - 1,
                fees: Fees(maxPriorityFeePerGas: Wei(1) << 200, maxFeePerGas: (Wei(1) << 255) + 1),
                gas: 30_000_000, to: recipient, value: (Wei(1) << 256) - 1, data: [0x00])
        ),
        (
            "access list", devKey,
            Transaction(
                chainID: 31337, nonce: 3,
                fees: Fees(maxPriorityFeePerGas: .gwei, maxFeePerGas: 3 * .gwei),
                gas: 50_000, to: recipient, value: 5,
                accessList: [
                    AccessListEntry(
                        address: recipient,
                        storageKeys: [
                            .zero, try! Bytes32(hex: "0x" + String(repeating: "ab", count: 32)),
                        ])
                ])
        ),
    ]

    static func refereeJSON(_ key: PrivateKey, _ tx: Transaction) -> [String: Any] {
        let keyHex = key.withUnsafeBytes { Hex.encode($0) }
        var fields: [String: Any] = [
            "chainId": String(tx.chainID), "nonce": String(tx.nonce),
            "maxPriorityFeePerGas": String(tx.maxPriorityFeePerGas),
            "maxFeePerGas": String(tx.maxFeePerGas), "gas": String(tx.gas),
            "value": String(tx.value), "data": Hex.encode(tx.data),
            "accessList": tx.accessList.map {
                ["address": $0.address.checksummed, "storageKeys": $0.storageKeys.map(\.hex)]
            },
        ]
        fields["to"] = tx.to?.checksummed ?? NSNull()
        return ["key": keyHex, "tx": fields]
    }

    @Test func rawTransactionsAndHashesAreTheReferees() throws {
        let answers = try #require(
            try EVMReferee.run("sign", Self.cases.map { Self.refereeJSON($0.1, $0.2) })
                as? [[String: String]])
        try #require(answers.count == Self.cases.count)
        for ((name, key, transaction), answer) in zip(Self.cases, answers) {
            let signed = try transaction.signed(with: key)
            #expect(Hex.encode(signed.raw) == answer["raw"], "\(name)")
            #expect(signed.hash.hex == answer["hash"], "\(name)")
            #expect(try signed.sender().checksummed == answer["sender"], "\(name)")
        }
    }

    @Test func theRefereesTransactionsReadBack() throws {
        let answers = try #require(
            try EVMReferee.run("sign", Self.cases.map { Self.refereeJSON($0.1, $0.2) })
                as? [[String: String]])
        for ((name, _, transaction), answer) in zip(Self.cases, answers) {
            let raw = bytes(try #require(answer["raw"]))
            let decoded = try SignedTransaction(raw: raw)
            #expect(decoded.transaction == transaction, "\(name)")
            #expect(decoded.raw == raw, "\(name)")
            #expect(decoded.hash.hex == answer["hash"], "\(name)")
        }
    }
}

/// Reading transactions back without the referee: what the decoder refuses.
@Suite struct SignedTransactionDecodingTests {
    let signed = try! Transaction(
        chainID: 31337, nonce: 1, fees: Fees(maxPriorityFeePerGas: 1, maxFeePerGas: 2), gas: 21_000,
        to: devAccount, value: 1
    ).signed(with: devKey)

    @Test func roundTripsAndRecoversTheSender() throws {
        let decoded = try SignedTransaction(raw: signed.raw)
        #expect(decoded == signed)
        #expect(try decoded.sender() == devAccount)
    }

    @Test func refusesOtherTypesAndShapes() throws {
        let payload = Array(signed.raw.dropFirst())
        #expect(throws: RLPError.self) { try SignedTransaction(raw: [0x01] + payload) }  // EIP-2930
        #expect(throws: RLPError.self) { try SignedTransaction(raw: payload) }  // legacy
        #expect(throws: RLPError.self) { try SignedTransaction(raw: signed.raw.dropLast()) }
        var fields = try #require(try RLP.decode(payload).listItems)
        fields.removeLast()
        #expect(throws: RLPError.self) {
            try SignedTransaction(raw: [0x02] + RLP.list(fields).encoded)
        }
        fields = try #require(try RLP.decode(payload).listItems)
        fields[5] = .bytes([1, 2, 3])  // a 3-byte "to"
        #expect(throws: RLPError.self) {
            try SignedTransaction(raw: [0x02] + RLP.list(fields).encoded)
        }
        fields = try #require(try RLP.decode(payload).listItems)
        fields[1] = .bytes([0, 1])  // a nonce with a leading zero
        #expect(throws: RLPError.self) {
            try SignedTransaction(raw: [0x02] + RLP.list(fields).encoded)
        }
    }
}
