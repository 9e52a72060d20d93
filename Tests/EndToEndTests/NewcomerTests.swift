import Foundation
import Synchronization
import Tender
import TenderTestSupport
import Testing

/// What a newcomer trips over, through the real CLI: each case's exit status and message.
@Suite struct NewcomerTests {
    func funded(notes: Int = 1, amount: Int = 1000) throws -> (CLI, String, String, String) {
        try CLI.alicePaysBob(notes: notes, amount: amount)
    }

    func expect(
        _ result: CLI.Result, _ status: Int32, _ text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            (result.stderr + result.stdout).contains(text),
            "expected '\(text)' in: \(result.stderr)",
            sourceLocation: sourceLocation)
    }

    @Test func aPaymentThatCannotBeWrittenIsCancelledNotLocked() throws {
        let (cli, _, _, bob) = try funded()
        let before = try cli.balance("alice")
        let result = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "500", "--out",
            "/proc/tender-payment",
        ])
        expect(result, 74, "nothing was sent: the payment is cancelled")
        #expect(try cli.balance("alice") == before)
        let listed = try cli.ok(["payments", "list", "--data-dir", cli.path("alice"), "--json"])
        let payments = listed.json["payments"] as? [[String: Any]] ?? []
        #expect(payments.map { $0["state"] as? String } == ["cancelled"])
        // The API's names for its times, beside the older ones.
        #expect(payments.first?["createdAt"] as? Int == payments.first?["created"] as? Int)
        #expect(payments.first?["updatedAt"] != nil)
    }

    /// An --out file that is there already is said before any payment is made: nothing
    /// reserved, nothing left in the list.
    @Test func anExistingOutFileIsRefusedBeforeAPaymentIsMade() throws {
        let (cli, _, _, bob) = try funded()
        try cli.write([1, 2, 3], to: "taken")
        let before = try cli.balance("alice")
        let result = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "500", "--out",
            cli.path("taken"),
        ])
        expect(result, 73, "already exists")
        #expect(try cli.balance("alice") == before)
        let listed = try cli.ok(["payments", "list", "--data-dir", cli.path("alice"), "--json"])
        #expect((listed.json["payments"] as? [[String: Any]] ?? []).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.path("taken"))) == Data([1, 2, 3]))
    }

    /// A request paid already is said as such, even when what is left could not pay it again.
    @Test func aRequestPaidAlreadyIsSaidSoWhateverTheCoins() throws {
        let (cli, _, _, _) = try funded(notes: 1, amount: 1000)
        let uri = try #require(
            try cli.ok([
                "request", "--amount", "800", "--qr", "svg", "--out", cli.path("request.svg"),
                "--data-dir", cli.path("bob"), "--json",
            ]).json["uri"] as? String)
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--request", uri, "--out", cli.path("first"),
        ])
        let again = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--request", uri, "--out", cli.path("second"),
        ])
        expect(again, 73, "this wallet already paid request")
        #expect(!again.stderr.contains("insufficient funds"))
    }

    @Test func changeIsSpendableOnceAPaymentIsHandedOver() throws {
        let (cli, _, _, bob) = try funded(notes: 3, amount: 1000)
        for amount in ["1", "2", "3", "4"] {
            try cli.ok([
                "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", amount, "--out",
                cli.path("pay-\(amount)"),
            ])
        }
        // Four payments from three coins: the change of each paid the next.
        #expect(try cli.balance("alice") == (2990, 10, 0))
    }

    @Test func theRecoveryWordsSayWhatTheyRestore() throws {
        let cli = try CLI()
        let created = try cli.ok(["init", "--data-dir", cli.path("w"), "--scrypt-n", "1024"])
        #expect(created.stdout.contains("not its coins"))
        #expect(created.stdout.contains("back them up with `tender backup --out FILE`"))
    }

    @Test func pathsThatAreNotWhatTheySeemAreNamed() throws {
        let (cli, _, _, _) = try funded()
        try FileManager.default.createDirectory(
            atPath: cli.path("folder"), withIntermediateDirectories: true)
        expect(
            try cli.run(["receive", cli.path("folder"), "--data-dir", cli.path("bob")]), 74,
            "it is a folder, not a file")
        try cli.write([1], to: "plain-file")
        expect(
            try cli.run(["init", "--data-dir", cli.path("plain-file"), "--scrypt-n", "1024"]), 64,
            "is a file, not a folder")
        expect(
            try cli.run(["init", "--data-dir", "/proc/tender-wallet", "--scrypt-n", "1024"]), 74,
            "cannot create the folder /proc/tender-wallet")
        let missingIssuer = try cli.run([
            "issuer", "issue", "--data-dir", cli.path("alice"), "--to",
            World().bob.checksummed, "--amount", "1", "--out", cli.path("n"),
        ])
        expect(
            missingIssuer, 66, "no issuer key in \(cli.path("alice")) (run `tender issuer init`)")
        #expect(!missingIssuer.stderr.contains("no wallet at"))
        expect(
            try cli.run([
                "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024",
            ]), 73, "a key already exists at")
        let longName = try cli.run([
            "print", "--data-dir", cli.path("bob"), "--name", String(repeating: "x", count: 70),
            "--out", cli.path("sheet.pdf"),
        ])
        expect(longName, 64, "--name is 70 bytes")
        #expect(!longName.stderr.contains("name: name"))
        expect(
            try cli.run([
                "pay", "--data-dir", cli.path("alice"), "--to", World().bob.checksummed,
                "--amount", "-5", "--out", cli.path("p"),
            ]), 64, "--amount: '-5' is not an amount")
        try cli.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], to: "image.png")
        expect(
            try cli.run(["receive", cli.path("image.png"), "--data-dir", cli.path("bob")]), 65,
            "not a Tender file")
    }

    @Test func exitStatusesFollowTheTable() throws {
        let (cli, _, _, bob) = try funded()
        let unknown = String(repeating: "ab", count: 32)
        expect(
            try cli.run([
                "payments", "export", unknown, "--data-dir", cli.path("alice"), "--out",
                cli.path("x"),
            ]), 66, "made no payment with request id")
        let id = String(repeating: "cd", count: 32)
        let first = [
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "1",
            "--request-id", id, "--out",
        ]
        try cli.ok(first + [cli.path("first")])
        expect(try cli.run(first + [cli.path("second")]), 73, "already paid request")

        // Payments racing for the same coins: each pays, or waits, or says to try again.
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let result = try? cli.run([
                "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "5", "--out",
                cli.path("race-\(index)"),
            ])
            results.add(result?.status ?? -1)
        }
        #expect(results.all.allSatisfy { $0 == 0 || $0 == 75 }, "\(results.all)")
    }

    @Test func riskyInputIsRefused() throws {
        let (cli, issuer, alice, bob) = try funded()
        let zero = "0x" + String(repeating: "0", count: 40)
        func pay(_ to: String, out: String = "p") throws -> CLI.Result {
            try cli.run([
                "pay", "--data-dir", cli.path("alice"), "--to", to, "--amount", "1", "--out",
                cli.path(out),
            ])
        }
        expect(try pay(zero), 64, "the zero address cannot be paid")
        expect(try pay(alice), 65, "cannot pay itself")
        expect(
            try cli.run(["trust", "add", zero, "--data-dir", cli.path("alice")]), 64,
            "the zero address cannot issue")
        expect(
            try cli.run(["trust", "add", alice, "--data-dir", cli.path("alice")]), 64,
            "does not trust itself")
        expect(
            try cli.run(["init", "--data-dir", cli.path("cheap"), "--scrypt-n", "2"]), 64,
            "too cheap to protect a key")
        try cli.write([1], to: "taken")
        expect(try pay(bob, out: "taken"), 73, "already exists")
        #expect(try cli.bytes("taken") == [1])
        expect(
            try cli.run([
                "request", "--data-dir", cli.path("bob"), "--amount", "5", "--qr", "png",
                "--out", cli.path("r.png"), "--name", "Ana",
            ]), 64, "--name is printed only on pdf and escpos")
        _ = issuer

        // A passphrase file written on Windows (CRLF) is the same passphrase.
        var crlf = cli
        try "test passphrase\r\n".write(
            toFile: cli.path("crlf"), atomically: true, encoding: .utf8)
        crlf.environment["TENDER_PASSPHRASE_FILE"] = cli.path("crlf")
        try crlf.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "1", "--out",
            cli.path("crlf-pay"),
        ])
    }

    @Test func historyListsAndInspectTellWhatHappened() throws {
        let (cli, _, alice, bob) = try funded()
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "7", "--memo",
            "two teas", "--out", cli.path("payment"),
        ])
        try cli.ok(["receive", cli.path("payment"), "--data-dir", cli.path("bob")])
        let out = try cli.ok(["history", "--data-dir", cli.path("alice")]).stdout
        #expect(out.contains("\"two teas\""))
        let id = try #require(
            out.split(separator: "\n").last?.split(separator: " ").last.map(String.init))
        #expect(id.count == 66)  // 0x + 64 digits: what `payments export` takes
        try cli.ok([
            "payments", "export", id, "--data-dir", cli.path("alice"), "--out", cli.path("again"),
        ])
        let incoming = try cli.ok(["history", "--data-dir", cli.path("bob")]).stdout
        #expect(incoming.contains("from \(alice)"))
        let inspected = try cli.ok(["inspect", cli.path("payment")]).stdout
        let firstLine = inspected.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("Payment: 7 (native coin) to \(bob)"), "\(firstLine)")
        #expect(inspected.contains("signed by: \(alice)"))
        #expect(!inspected.contains("typedData"))
        #expect(
            try cli.ok(["inspect", cli.path("payment"), "--verbose"]).stdout.contains("typedData"))

        // Times in errors are dates, not raw Unix seconds.
        let expired = try cli.run(
            ["receive", cli.path("payment"), "--data-dir", cli.path("bob")],
            extraEnvironment: ["TENDER_NOW": "4000000000"])
        #expect(!expired.stderr.contains("4000000000"))
    }

    @Test func everyReadCommandSpeaksJSON() throws {
        let (cli, _, _, _) = try funded()
        for arguments in [
            ["trust", "list"], ["payments", "list"], ["payments"], ["evidence"],
            ["request", "--amount", "5"],
        ] {
            let result = try cli.ok(arguments + ["--data-dir", cli.path("bob"), "--json"])
            #expect(!result.json.isEmpty, "\(arguments): \(result.stdout)")
        }
        let printed = try cli.ok([
            "print", "--data-dir", cli.path("bob"), "--name", "Ana", "--out", cli.path("s.pdf"),
            "--json",
        ])
        #expect(printed.json["uri"] != nil)
    }

    @Test func helpSaysWhatTheCommandsDo() throws {
        let cli = try CLI()
        let payments = try cli.run(["payments", "--help"]).stdout
        #expect(!payments.contains("mark it in doubt"))
        #expect(payments.contains("list"))
        let show = try cli.run(["show", "--help"]).stdout
        #expect(show.contains("--frame-size"))
        #expect(!show.contains("frames of --size"))
    }
}

final class ResultBox: Sendable {
    private let statuses = Mutex<[Int32]>([])
    func add(_ status: Int32) { statuses.withLock { $0.append(status) } }
    var all: [Int32] { statuses.withLock { $0 } }
}
