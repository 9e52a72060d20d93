import Foundation
import Tender
import TenderTestSupport
import Testing
import WalletStore

/// The issuer's record of what it signed: notes count as outstanding, per vault and asset,
/// until they expire; a record whose notes were never written is taken back.
@Suite struct IssuanceLedgerTests {
    let domain = Domain(
        chainID: 31337, vault: try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3"))
    let other = Domain(
        chainID: 31338, vault: try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3"))
    let token = try! Address("0x00000000000000000000000000000000000000A0")

    func entry(
        _ id: UInt8, _ domain: Domain, _ asset: Address, _ total: Amount, notes: Int = 1,
        expiry: UInt64
    ) -> IssuanceLedger.Entry {
        IssuanceLedger.Entry(
            requestID: try! Bytes32([UInt8](repeating: id, count: 32)), domain: domain,
            asset: asset, total: total, notes: notes, expiry: expiry, issuedAt: 1_000)
    }

    @Test func notesCountPerVaultAndAssetUntilTheyExpire() throws {
        let path = try TemporaryDirectory("tender-issued").file("issued.sqlite")
        let ledger = try IssuanceLedger(path: path)
        try ledger.record(entry(1, domain, .zero, 600, notes: 2, expiry: 5_000))
        try ledger.record(entry(2, domain, .zero, 400, expiry: 9_000))
        try ledger.record(entry(3, domain, token, 7, expiry: 9_000))
        try ledger.record(entry(4, other, .zero, 50, expiry: 9_000))

        let early = try ledger.outstanding(in: domain, now: 2_000)
        let native = try #require(early[.zero])
        #expect(native.total == 1_000 && native.notes == 3 && native.lastExpiry == 9_000)
        #expect(early[token]?.total == 7)
        // The first issuance's notes expired at 5,000: no longer outstanding.
        let later = try ledger.outstanding(in: domain, now: 5_000)
        let left = try #require(later[.zero])
        #expect(left.total == 400 && left.notes == 1 && left.lastExpiry == 9_000)
        #expect(try ledger.outstanding(in: other, now: 2_000)[.zero]?.total == 50)
        #expect(try ledger.outstanding(in: domain, now: 9_000).isEmpty)

        // Reopened from its file: the same; a record taken back is gone.
        try ledger.close()
        let reopened = try IssuanceLedger(path: path)
        try reopened.forget(try Bytes32([UInt8](repeating: 2, count: 32)))
        #expect(try reopened.outstanding(in: domain, now: 5_000)[.zero] == nil)
        // One request id is one issuance.
        #expect(throws: (any Error).self) {
            try reopened.record(entry(1, domain, .zero, 1, expiry: 9_000))
        }
    }
}
