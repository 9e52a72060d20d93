import Foundation
import Secp256k1
import Tender
import TenderTestSupport
import Testing

/// The real `tender` binary, real SQLite files, real key files.
@Suite struct CLITests {
    /// Issuer funds Alice; Alice pays Bob; Bob's receipt closes the payment.
    @Test func twoWalletsPayEachOtherThroughFiles() throws {
        let (cli, issuer, _, bob) = try CLI.alicePaysBob(notes: 3, amount: 100)
        #expect(try cli.balance("alice") == (300, 0, 0))

        let paid = try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "130", "--memo",
            "lunch", "--out", cli.path("payment"), "--json",
        ]).json
        #expect(paid["state"] as? String == "pending")
        // Handed over: the transfer is irrevocable, so its change (70) is spendable at once and
        // only the amount paid is pending (PROTOCOL.md §5).
        #expect(try cli.balance("alice") == (170, 130, 0))

        let received = try cli.ok([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("receipt"), "--json",
        ]).json
        #expect(received["amount"] as? String == "130")
        #expect(received["repeated"] as? Bool == false)
        // A retry returns the same receipt and credits nothing more.
        let again = try cli.ok([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("receipt2"), "--json",
        ]).json
        #expect(again["repeated"] as? Bool == true)
        #expect(try cli.bytes("receipt") == cli.bytes("receipt2"))
        #expect(try cli.balance("bob") == (130, 0, 0))
        // A receipt can go to a pipe (here stdout) or device: written in place, not replaced.
        let piped = try cli.ok([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            "/dev/stdout",
        ])
        #expect(piped.stdoutBytes.starts(with: try cli.bytes("receipt")))

        let recorded = try cli.ok([
            "receipt", cli.path("receipt"), "--data-dir", cli.path("alice"), "--json",
        ]).json
        #expect(recorded["state"] as? String == "spent")
        try cli.ok(["receipt", cli.path("receipt"), "--data-dir", cli.path("alice")])  // idempotent
        #expect(try cli.balance("alice") == (170, 0, 0))

        let history =
            try cli.ok(["history", "--data-dir", cli.path("alice"), "--json"]).json["history"]
            as! [[String: Any]]
        #expect(history.map { $0["direction"] as! String } == ["in", "out"])
        #expect(history[1]["memo"] as? String == "lunch")
        #expect(history[1]["state"] as? String == "spent")

        // Bob pays Carol onward with the coin he received: two hops, offline.
        let carol = try cli.initWallet("carol")
        try cli.ok(["trust", "add", issuer, "--data-dir", cli.path("carol")])
        try cli.ok([
            "pay", "--data-dir", cli.path("bob"), "--to", carol, "--amount", "30", "--out",
            cli.path("onward"),
        ])
        try cli.ok(["receive", cli.path("onward"), "--data-dir", cli.path("carol")])
        #expect(try cli.balance("carol") == (30, 0, 0))
    }

    @Test func restoringTheWordsRestoresTheAddress() throws {
        let cli = try CLI()
        // The well-known development mnemonic and its first Ethereum account (BIP44 m/44'/60'/0'/0/0).
        let address = try cli.initWallet(
            "restored", mnemonic: "test test test test test test test test test test test junk")
        #expect(address == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        let created = try cli.ok([
            "init", "--data-dir", cli.path("fresh"), "--scrypt-n", "1024", "--words", "12",
            "--json",
        ]).json
        let words = try #require(created["mnemonic"] as? String)
        #expect(words.split(separator: " ").count == 12)
        #expect(try cli.initWallet("again", mnemonic: words) == created["address"] as? String)
        let bad = try cli.run(
            ["init", "--data-dir", cli.path("bad"), "--restore"],
            extraEnvironment: ["TENDER_MNEMONIC_FILE": cli.path("again.words") + ".missing"])
        #expect(bad.status == 66)
    }

    @Test func keysAreEncryptedAndPrivate() throws {
        let cli = try CLI()
        try cli.initWallet("alice")
        let attributes = try FileManager.default.attributesOfItem(
            atPath: cli.path("alice/wallet-key.json"))
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: cli.path("alice"))
        #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let keyFile = String(decoding: try cli.bytes("alice/wallet-key.json"), as: UTF8.self)
        #expect(keyFile.contains("scrypt"))

        try "wrong\n".write(toFile: cli.path("wrong"), atomically: true, encoding: .utf8)
        let refused = try cli.run(
            [
                "pay", "--data-dir", cli.path("alice"), "--to",
                "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf", "--amount", "1", "--out",
                cli.path("x"),
            ],
            extraEnvironment: ["TENDER_PASSPHRASE_FILE": cli.path("wrong")])
        #expect(refused.status == 77)
        #expect(refused.stderr.contains("wrong passphrase"))
        let none = try cli.run(
            ["issuer", "init", "--data-dir", cli.path("i")],
            extraEnvironment: ["TENDER_PASSPHRASE_FILE": ""])
        #expect(none.status == 77)
        #expect(none.stderr.contains("TENDER_PASSPHRASE_FILE"))
    }

    @Test func usageAndMissingWalletErrors() throws {
        let cli = try CLI()
        let help = try cli.run(["--help"])
        #expect(help.status == 0)
        for command in [
            "init", "balance", "pay", "receive", "receipt", "history", "evidence", "inspect",
            "issuer",
        ] {
            #expect(help.stdout.contains(command))
        }
        #expect(try cli.run(["pay"]).status == 64)
        #expect(try cli.run(["pay", "--to", "0x12", "--amount", "1", "--out", "x"]).status == 64)
        let missing = try cli.run(["balance", "--data-dir", cli.path("nobody")])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no wallet"))
        try cli.initWallet("alice")
        let twice = try cli.run(["init", "--data-dir", cli.path("alice"), "--scrypt-n", "1024"])
        #expect(twice.status == 73)
        let poor = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to",
            "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf", "--amount", "5", "--out", cli.path("x"),
        ])
        #expect(poor.status == 65)
        #expect(poor.stderr.contains("insufficient funds"))
    }

    @Test func aPaymentThatNeverLeftCanBeCancelledAndALostFileExportedAgain() throws {
        let cli = try CLI()
        let alice = try cli.initWallet("alice")
        let issuer =
            try cli.ok([
                "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024", "--json",
            ]).json["issuer"] as! String
        try cli.ok(["trust", "add", issuer, "--data-dir", cli.path("alice")])
        try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", alice, "--amount", "50",
            "--out", cli.path("notes"),
        ])
        try cli.ok(["receive", cli.path("notes"), "--data-dir", cli.path("alice")])
        let id = "0x" + String(repeating: "ab", count: 32)
        let payee = "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf"
        let crashed = try cli.run(
            [
                "pay", "--data-dir", cli.path("alice"), "--to", payee, "--amount", "20",
                "--request-id", id, "--out", cli.path("lost"),
            ],
            extraEnvironment: ["TENDER_CRASH_AT": "pay.prepared"])
        #expect(crashed.signalled)
        #expect(!FileManager.default.fileExists(atPath: cli.path("lost")))
        #expect(try cli.balance("alice") == (0, 50, 0))
        try cli.ok(["payments", "cancel", id, "--data-dir", cli.path("alice")])
        #expect(try cli.balance("alice") == (50, 0, 0))

        // Once handed over it cannot be cancelled; the file can be written again, identical.
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", payee, "--amount", "20", "--request-id",
            id, "--out", cli.path("sent"),
        ])
        #expect(
            try cli.run(["payments", "cancel", id, "--data-dir", cli.path("alice")]).status == 65)
        try cli.ok([
            "payments", "export", id, "--data-dir", cli.path("alice"), "--out", cli.path("copy"),
        ])
        #expect(try cli.bytes("sent") == cli.bytes("copy"))
    }
}
