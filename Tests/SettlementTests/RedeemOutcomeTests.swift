import Codecs
import Foundation
import Settlement
import Tender
import TenderTestSupport
import Testing

/// Each coin's fate read from the vault's events.
@Suite struct RedeemOutcomeTests {
    let vault = try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3")
    let coin = try! CoinID(hex: "0x" + String(repeating: "11", count: 32))
    let other = try! CoinID(hex: "0x" + String(repeating: "22", count: 32))

    func word(_ value: UInt64) -> [UInt8] {
        [UInt8](repeating: 0, count: 24) + withUnsafeBytes(of: value.bigEndian, Array.init)
    }

    /// The topics are keccak-256 of the events' signatures as eth-utils computes them.
    @Test func eventTopicsMatchAnIndependentKeccak() throws {
        guard let python = RefereePython.find(importing: "eth_utils") else {
            if RefereePython.isCI { Issue.record("no referee python with eth_utils") }
            return
        }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent(
            "topics-\(UUID().uuidString).py")
        try """
        import sys
        from eth_utils import keccak
        for signature in sys.argv[1:]:
            print(keccak(text=signature).hex())
        """.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let signatures = [
            "CoinRedeemed(bytes32,uint256)", "CoinRejected(bytes32,uint8)",
            "DoubleSpend(bytes32,bytes32,bytes32,address)", "Consumed(bytes32,bytes32)",
            "PayoutDeferred(address,address,uint256,uint256)",
        ]
        let run = try RefereePython.run(python, script: script.path, signatures)
        #expect(run.status == 0, "\(run.errors)")
        let theirs = String(decoding: run.output, as: UTF8.self).split(separator: "\n")
            .map { "0x" + $0 }
        let ours = [
            VaultEvents.coinRedeemed, VaultEvents.coinRejected, VaultEvents.doubleSpend,
            VaultEvents.consumed, VaultEvents.payoutDeferred,
        ].map(\.hex)
        #expect(ours == theirs)
    }

    @Test func redeemedRejectedAndDoubleSpentCoinsAreRead() throws {
        let owner = try Address("0x000000000000000000000000000000000000bEEF")
        let recorded = try Bytes32([UInt8](repeating: 0xAA, count: 32))
        let presented = try Bytes32([UInt8](repeating: 0xBB, count: 32))
        let logs = [
            VaultLog(address: vault, topics: [VaultEvents.coinRedeemed, coin], data: word(60)),
            VaultLog(address: vault, topics: [VaultEvents.coinRejected, other], data: word(7)),
            VaultLog(
                address: vault,
                topics: [
                    VaultEvents.doubleSpend, other,
                    try Bytes32([UInt8](repeating: 0, count: 12) + owner.bytes),
                ], data: recorded.bytes + presented.bytes),
            // Another contract's event of the same shape is not the vault's word.
            VaultLog(address: .zero, topics: [VaultEvents.coinRedeemed, other], data: word(1)),
        ]
        let outcome = try RedeemOutcome(logs: logs, vault: vault)
        #expect(outcome.fates[coin] == .redeemed(60))
        #expect(outcome.fates[other] == .rejected(code: 7, reason: .doubleSpend))
        #expect(
            outcome.doubleSpends
                == [.init(coin: other, recorded: recorded, presented: presented, owner: owner)])
    }

    /// A token that refused its payout: the amount owed, read; a malformed one is an error.
    @Test func aDeferredPayoutIsRead() throws {
        let token = try Address("0x000000000000000000000000000000000000cafe")
        let padded = try Bytes32([UInt8](repeating: 0, count: 12) + token.bytes)
        let redeemer = try Bytes32([UInt8](repeating: 0, count: 12) + vault.bytes)
        let outcome = try RedeemOutcome(
            logs: [
                VaultLog(
                    address: vault, topics: [VaultEvents.payoutDeferred, redeemer, padded],
                    data: word(200) + word(500))
            ], vault: vault)
        #expect(outcome.deferredPayouts == [.init(asset: token, amount: 200, owed: 500)])
        for bad in [
            VaultLog(
                address: vault, topics: [VaultEvents.payoutDeferred, redeemer, padded],
                data: word(200)),
            VaultLog(
                address: vault,
                topics: [
                    VaultEvents.payoutDeferred, redeemer,
                    try Bytes32([UInt8](repeating: 0xFF, count: 32)),
                ], data: word(200) + word(500)),
        ] {
            #expect(throws: SettlementError.self) { try RedeemOutcome(logs: [bad], vault: vault) }
        }
    }

    @Test func malformedEventsAreErrorsNotGuesses() throws {
        let bad = [
            VaultLog(address: vault, topics: [VaultEvents.coinRedeemed], data: word(1)),
            VaultLog(address: vault, topics: [VaultEvents.coinRedeemed, coin], data: [1, 2]),
            VaultLog(
                address: vault, topics: [VaultEvents.coinRedeemed, coin],
                data: [UInt8](repeating: 0xFF, count: 32)),
            VaultLog(address: vault, topics: [VaultEvents.coinRejected, coin], data: word(300)),
        ]
        for log in bad {
            #expect(throws: SettlementError.self) {
                _ = try RedeemOutcome(logs: [log], vault: vault)
            }
        }
    }
}

/// The vault's reason codes, named as the offline verifier names the same checks; a code the
/// node does not know is kept as a number.
@Suite struct VaultRejectionTests {
    @Test func everyReasonCodeOfTheVaultIsKnownByItsName() throws {
        let vault = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/SettlementTests/RedeemOutcomeTests.swift", with: "Contracts/Vault.vy"),
            encoding: .utf8)
        for reason in VaultRejection.allCases {
            let constant = reason.name.uppercased().replacingOccurrences(of: "-", with: "_")
            #expect(
                vault.contains("\(constant): constant(uint8) = \(reason.rawValue)"),
                "Vault.vy names code \(reason.rawValue) \(constant)")
        }
        #expect(VaultRejection(rawValue: 0) == nil)
        #expect(VaultRejection(rawValue: 16) == nil)
    }
}
