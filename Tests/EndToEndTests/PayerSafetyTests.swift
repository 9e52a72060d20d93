import Foundation
import Testing

/// The payer's coins are never released twice and never stuck: a cancelled payment cannot be
/// sent after all, and a payment the payee would have to refuse is never made.
@Suite struct PayerSafetyTests {
    /// Cancel releases the coins; exporting the cancelled payment afterwards would hand the
    /// payee coins that may be spent again. It is refused, and the coins stay spendable once.
    @Test func aCancelledPaymentIsNeverExported() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 1, amount: 100)
        let id = String(repeating: "ab", count: 32)
        let crashed = try cli.run(
            [
                "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "100",
                "--request-id", id, "--out", cli.path("payment"),
            ], extraEnvironment: ["TENDER_CRASH_AT": "pay.prepared"])
        #expect(crashed.signalled)
        try cli.ok(["payments", "cancel", id, "--data-dir", cli.path("alice")])
        #expect(try cli.balance("alice") == (100, 0, 0))
        let exported = try cli.run([
            "payments", "export", id, "--data-dir", cli.path("alice"), "--out",
            cli.path("payment"),
        ])
        #expect(exported.status == 65)
        #expect(exported.stderr.contains("cannot export a payment that is cancelled"))
        #expect(!FileManager.default.fileExists(atPath: cli.path("payment")))
        #expect(try cli.balance("alice") == (100, 0, 0))
    }

    /// Exporting a prepared payment hands it over in the same step: it can no longer be
    /// cancelled, because the file may reach the payee.
    @Test func anExportedPaymentCanNoLongerBeCancelled() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 1, amount: 100)
        let id = String(repeating: "cd", count: 32)
        _ = try cli.run(
            [
                "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "60",
                "--request-id", id, "--out", cli.path("payment"),
            ], extraEnvironment: ["TENDER_CRASH_AT": "pay.prepared"])
        try cli.ok([
            "payments", "export", id, "--data-dir", cli.path("alice"), "--out",
            cli.path("payment"),
        ])
        let cancel = try cli.run(["payments", "cancel", id, "--data-dir", cli.path("alice")])
        #expect(cancel.status == 65)
        try cli.ok(["receive", cli.path("payment"), "--data-dir", cli.path("bob")])
        #expect(try cli.balance("bob").spendable == 60)
    }

    @Test func aMemoThePayeeWouldRefuseIsRefusedFirst() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 1, amount: 100)
        let long = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "40", "--memo",
            String(repeating: "m", count: 141), "--out", cli.path("payment"),
        ])
        #expect(long.status == 64)
        #expect(long.stderr.contains("--memo is 141 bytes; at most 140"))
        #expect(try cli.balance("alice") == (100, 0, 0))
    }

    /// More notes than a payment may carry (the payee's cap is 256): refused before any coin
    /// is reserved, instead of a pending payment no payee can accept.
    @Test func aPaymentOverTheProofCapsIsNeverPrepared() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 150, amount: 1)
        let alice = try cli.ok(["address", "--data-dir", cli.path("alice")]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", alice, "--amount", "1",
            "--count", "150", "--out", cli.path("more-notes"),
        ])
        try cli.ok(["receive", cli.path("more-notes"), "--data-dir", cli.path("alice")])
        let refused = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "300", "--out",
            cli.path("payment"),
        ])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("the payee would refuse this payment"))
        #expect(refused.stderr.contains("notes"))
        #expect(try cli.balance("alice") == (300, 0, 0))
        #expect(!FileManager.default.fileExists(atPath: cli.path("payment")))
    }

    /// The receipt was lost and the payer retries after the coins expired: the payee judges
    /// the repeat as of when it accepted it and returns the same receipt, so the payer's
    /// change is released rather than reserved for good.
    @Test func aRetryAfterExpiryStillGetsTheReceipt() throws {
        let cli = try CLI()
        let start: UInt64 = 1_800_000_000
        let at = { (seconds: UInt64) in ["TENDER_NOW": String(start + seconds)] }
        let alice = try cli.initWallet("alice")
        let bob = try cli.initWallet("bob")
        let issuer =
            try cli.ok(
                [
                    "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024",
                    "--json",
                ]
            ).json["issuer"] as! String
        for wallet in ["alice", "bob"] {
            try cli.ok(["trust", "add", issuer, "--data-dir", cli.path(wallet)])
        }
        try cli.ok(
            [
                "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", alice, "--amount",
                "100", "--expires-in", "7200", "--out", cli.path("notes"),
            ], extraEnvironment: at(0))
        try cli.ok(
            ["receive", cli.path("notes"), "--data-dir", cli.path("alice")], extraEnvironment: at(0)
        )
        let id = String(repeating: "ef", count: 32)
        try cli.ok(
            [
                "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "30",
                "--request-id", id, "--out", cli.path("payment"),
            ], extraEnvironment: at(10))
        try cli.ok(
            [
                "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
                cli.path("receipt"),
            ], extraEnvironment: at(20))
        let first = try cli.bytes("receipt")
        try FileManager.default.removeItem(atPath: cli.path("receipt"))  // lost on the way

        let retry = try cli.run(
            [
                "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
                cli.path("receipt"),
            ], extraEnvironment: at(3 * 3600))
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(retry.stdout.contains("already accepted"))
        #expect(try cli.bytes("receipt") == first)
        try cli.ok(
            ["receipt", cli.path("receipt"), "--data-dir", cli.path("alice")],
            extraEnvironment: at(3 * 3600))
    }

    /// Files that could not be written are refused before anything is committed: a payment
    /// recorded as handed over whose file never appeared could not be cancelled, and a payee
    /// that accepted but could not write the receipt would report a failure.
    @Test func unwritableOutputsAreRefusedBeforeAnythingChanges() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 1, amount: 100)
        let nowhere = cli.path("no-such-folder/payment")
        let pay = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "40", "--out", nowhere,
        ])
        #expect(pay.status != 0)
        #expect(pay.stderr.contains("no folder"))
        #expect(try cli.balance("alice") == (100, 0, 0))
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "40", "--out",
            cli.path("payment"),
        ])
        let receive = try cli.run([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("no-such-folder/receipt"),
        ])
        #expect(receive.status != 0)
        #expect(try cli.balance("bob") == (0, 0, 0))
        try cli.ok([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("receipt"),
        ])
        #expect(try cli.balance("bob").spendable == 40)
    }
}
