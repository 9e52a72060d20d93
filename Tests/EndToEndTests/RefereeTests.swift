import Foundation
import TenderTestSupport
import Testing

/// The Python referee (Referee/referee.py): an independent implementation of Tender's wire
/// format and EIP-712 signatures on eth-account, eth-hash and cbor2 (Docs/ARCHITECTURE.md, "Referees"). A test
/// tool, never part of the product.
enum Referee {
    static let script = RefereePython.packageRoot
        .appendingPathComponent("Tests/EndToEndTests/Referee/referee.py").path

    static let python = RefereePython.find(importing: "eth_account, cbor2")

    /// Without the referee the tests are disabled on a developer machine (run Scripts/setup.sh
    /// to enable them), but in CI (`$CI` set) they run and fail, so a missing referee never
    /// passes silently.
    static var shouldRun: Bool { python != nil || RefereePython.isCI }

    /// Runs `referee.py ARGUMENTS` (no shell) in the CLI's scratch directory.
    static func run(_ arguments: [String], in cli: CLI) throws -> CLI.Result {
        guard let python else {
            throw Failure(
                "no referee Python: run `bash Scripts/setup.sh` or set TENDER_REFEREE_PYTHON"
                    + " (CI is set, so this fails instead of being skipped)"
            )
        }
        return try CLI.launch(
            URL(fileURLWithPath: python), [script] + arguments, environment: nil,
            directory: cli.workDirectory)
    }

    /// Runs the referee and requires it to agree (exit 0); returns its JSON.
    @discardableResult
    static func agree(_ arguments: [String], in cli: CLI) throws -> [String: Any] {
        let result = try run(arguments, in: cli)
        guard result.status == 0 else {
            throw Failure(
                "referee \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)"
            )
        }
        return result.json
    }

    /// Fixed test keys for the referee's issuer and payer, and a stranger's (well known; never
    /// hold real funds).
    static let issuerKey = "0x" + String(repeating: "11", count: 32)
    static let ownerKey = "0x" + String(repeating: "22", count: 32)
    static let strangerKey = "0x" + String(repeating: "33", count: 32)

    /// The BIP39 test mnemonic: a wallet restored from it has a key the referee can derive too.
    static let testWords =
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    /// Has the referee sign a note of `noteAmount` to its own payer, a transfer paying each of
    /// `pay` to `payee` as one coin (change back), and the payment's terms (protocol version 2),
    /// for `wallet`'s domain unless `chainID` overrides it. Without `noteAmount` (with
    /// `--issue` in `extra`) it is an issuance: notes straight to the payee.
    static func makePayment(
        in cli: CLI, wallet: String, payee: String, noteAmount: String?, pay: [String],
        out: String, chainID: String? = nil,
        expiry: UInt64 = UInt64(Date().timeIntervalSince1970) + 86_400, extra: [String] = []
    ) throws -> [String: Any] {
        let domain = try cli.ok(["address", "--data-dir", cli.path(wallet), "--json"]).json
        var arguments = [
            "make-payment", "--issuer-key", issuerKey, "--owner-key", ownerKey, "--payee", payee,
            "--chain-id", chainID ?? domain["chainId"] as! String, "--vault",
            domain["vault"] as! String, "--expiry", String(expiry), "--memo", "from the referee",
            "--out", cli.path(out),
        ]
        if let noteAmount { arguments += ["--note-amount", noteAmount] }
        for amount in pay { arguments += ["--pay", amount] }
        return try agree(arguments + extra, in: cli)
    }

    /// Has the referee change one signed term of a payment file (or re-spell its signature),
    /// keeping the payer's signature; returns what it changed.
    @discardableResult
    static func tamper(
        in cli: CLI, _ file: String, field: String, out: String
    ) throws -> [String: Any] {
        try agree(["tamper", cli.path(file), "--field", field, "--out", cli.path(out)], in: cli)
    }

    /// Writes `tender inspect --json FILE` beside it and has the referee re-derive everything
    /// in it; `expect` pins signers ("notes", "transfers", "payment", "receipt" → address);
    /// `paymentDigest` is the digest a receipt must sign.
    @discardableResult
    static func checkInspect(
        in cli: CLI, _ file: String, expect: [String: String], againstPayment: String? = nil,
        paymentDigest: String? = nil
    ) throws -> [String: Any] {
        let inspection = try cli.ok(["inspect", "--json", cli.path(file)]).stdout
        try inspection.write(toFile: cli.path("\(file).json"), atomically: true, encoding: .utf8)
        var arguments = ["check-inspect", cli.path("\(file).json")]
        for (kind, address) in expect.sorted(by: { $0.key < $1.key }) {
            arguments += ["--expect", "\(kind)=\(address)"]
        }
        if let againstPayment {
            arguments += ["--against-payment", cli.path("\(againstPayment).json")]
        }
        if let paymentDigest { arguments += ["--payment-digest", paymentDigest] }
        return try agree(arguments, in: cli)
    }
}

@Suite(
    "RefereeTests",
    .enabled(
        if: Referee.shouldRun,
        "no Python referee: run `bash Scripts/setup.sh` or set TENDER_REFEREE_PYTHON"
    ))
struct RefereeTests {
    /// The bytes of a wallet's store (database and write-ahead log), to show a refusal changed
    /// nothing.
    func store(_ cli: CLI, _ wallet: String) throws -> [[UInt8]] {
        try ["\(wallet)/wallet.sqlite", "\(wallet)/wallet.sqlite-wal"].map { name in
            FileManager.default.fileExists(atPath: cli.path(name)) ? try cli.bytes(name) : []
        }
    }

    /// `wallet` receives `file` and must refuse it (exit 65) with a message containing each of
    /// `messages`, leaving its store byte for byte as it was and writing no receipt.
    func expectRefusal(
        _ cli: CLI, _ file: String, wallet: String, _ messages: [String],
        environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try store(cli, wallet)
        let receipt = cli.path("\(file).receipt")
        let result = try cli.run(
            [
                "receive", cli.path(file), "--data-dir", cli.path(wallet), "--receipt-out",
                receipt,
            ], extraEnvironment: environment)
        #expect(result.status == 65, "\(file): \(result.stderr)", sourceLocation: sourceLocation)
        for message in messages {
            #expect(
                result.stderr.contains(message), "\(file): \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        #expect(
            try store(cli, wallet) == before, "\(file) changed the store",
            sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: receipt), "\(file) got a receipt",
            sourceLocation: sourceLocation)
    }

    /// A payment built entirely by the referee (cbor2, eth-account, keccak), its terms signed
    /// by the payer, is accepted by `tender receive`, which credits exactly the coin ids the
    /// referee computed; what `inspect` shows of it re-derives in the referee.
    @Test func refereePaymentIsAcceptedByTender() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        let made = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["250"],
            out: "referee.tender")
        let issuer = try #require(made["issuer"] as? String)
        let owner = try #require(made["owner"] as? String)
        #expect(made["payer"] as? String == owner)
        try Referee.agree(["check-cbor", cli.path("referee.tender")], in: cli)
        try cli.ok(["trust", "add", issuer, "--data-dir", cli.path("payee")])

        let received = try cli.ok([
            "receive", cli.path("referee.tender"), "--data-dir", cli.path("payee"), "--json",
        ]).json
        #expect(received["amount"] as? String == "250")
        #expect(received["requestId"] as? String == made["requestId"] as? String)
        #expect(received["coins"] as? [String] == made["credited"] as? [String])
        let balance = try cli.balance("payee")
        #expect(balance.spendable == 250)
        #expect(balance.pending == 0)
        #expect(balance.inDoubt == 0)

        let checked = try Referee.checkInspect(
            in: cli, "referee.tender",
            expect: ["notes": issuer, "transfers": owner, "payment": owner])
        #expect(checked["checked"] as? Int == 3)
        #expect(checked["credited"] as? [String] == made["credited"] as? [String])
        #expect(checked["payer"] as? String == owner)
        #expect(checked["paymentDigest"] as? String == made["paymentDigest"] as? String)
    }

    /// An issuance built by the referee (notes straight to the payee, the terms signed by the
    /// issuer, PROTOCOL.md §5) is accepted, crediting the notes' coins in the signed order.
    @Test func refereeIssuanceIsAcceptedByTender() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        let made = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: nil, pay: ["250", "5"],
            out: "issued.tender", extra: ["--issue"])
        let issuer = try #require(made["issuer"] as? String)
        #expect(made["payer"] as? String == issuer)
        try cli.ok(["trust", "add", issuer, "--data-dir", cli.path("payee")])
        let received = try cli.ok([
            "receive", cli.path("issued.tender"), "--data-dir", cli.path("payee"), "--json",
        ]).json
        #expect(received["amount"] as? String == "255")
        #expect(received["coins"] as? [String] == made["credited"] as? [String])
        #expect(try cli.balance("payee").spendable == 255)
        let checked = try Referee.checkInspect(
            in: cli, "issued.tender", expect: ["notes": issuer, "payment": issuer])
        #expect(checked["checked"] as? Int == 3)
        #expect(checked["payer"] as? String == issuer)
        #expect(checked["paymentDigest"] as? String == made["paymentDigest"] as? String)
    }

    /// Signed for another chain, or with the payee's output raised after the transfer was
    /// signed, the referee's payment is refused (exit 65) for the right reason and changes
    /// nothing.
    @Test func tamperedRefereePaymentsAreRefused() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        let chainID = try #require(
            cli.ok(["address", "--data-dir", cli.path("payee"), "--json"]).json["chainId"]
                as? String)
        let otherChain = String(try #require(UInt64(chainID)) + 1)

        let wrongChain = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["250"],
            out: "wrong-chain.tender", chainID: otherChain)
        try cli.ok([
            "trust", "add", wrongChain["issuer"] as! String, "--data-dir", cli.path("payee"),
        ])
        try expectRefusal(
            cli, "wrong-chain.tender", wallet: "payee",
            ["wrong chain id", "signed for chain \(otherChain)"])

        let inflated = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["250"],
            out: "inflated.tender", extra: ["--inflate-after-signing", "100"])
        #expect(inflated["amount"] as? String == "350")
        let owner = try #require(inflated["owner"] as? String)
        try expectRefusal(
            cli, "inflated.tender", wallet: "payee",
            ["transfer #0 is not signed by the owner \(owner)"])

        let balance = try cli.balance("payee")
        #expect(balance.spendable == 0)
        #expect(balance.pending == 0)
        #expect(balance.inDoubt == 0)
    }

    /// PROTOCOL.md §5: the payer's signature covers every term. The referee changes each signed
    /// field after signing and keeps the old signature; Tender refuses each (exit 65) naming
    /// the fault and stores nothing. The same signature re-spelt (v 0/1, the high-s twin) means
    /// the same to eth-account but is refused on the wire (§1). The genuine payment is then
    /// accepted, and its receipt signs exactly the referee's EIP-712 Payment digest and
    /// recovers to the payee.
    @Test func termsChangedAfterSigningAreRefusedAndTheReceiptSignsTheRefereesDigest() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        let made = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["250", "100"],
            out: "genuine.tender")
        let owner = try #require(made["owner"] as? String)
        let credited = try #require(made["credited"] as? [String])
        #expect(credited.count == 2)
        try cli.ok(["trust", "add", made["issuer"] as! String, "--data-dir", cli.path("payee")])

        let notSigned = "payment is not signed by \(owner)"
        let changes: [(field: String, message: String)] = [
            ("requestId", notSigned), ("payee", "it pays"), ("asset", notSigned),
            ("amount", notSigned), ("memo", notSigned), ("coins-reorder", notSigned),
            ("coins-drop", notSigned), ("signature-v01", "v must be 27 or 28"),
            ("signature-high-s", "high s value"),
        ]
        for (field, message) in changes {
            let forged = "forged-\(field).tender"
            let change = try Referee.tamper(in: cli, "genuine.tender", field: field, out: forged)
            var messages = [message]
            if field == "payee" {
                let other = try #require(change["after"] as? String)
                messages = ["it pays \(other), this wallet is \(payee)"]
            }
            try expectRefusal(cli, forged, wallet: "payee", messages)
        }

        try cli.ok([
            "receive", cli.path("genuine.tender"), "--data-dir", cli.path("payee"),
            "--receipt-out", cli.path("receipt.tender"),
        ])
        #expect(try cli.balance("payee").spendable == 350)
        try Referee.agree(["check-cbor", cli.path("receipt.tender")], in: cli)
        try Referee.checkInspect(
            in: cli, "genuine.tender", expect: ["payment": owner, "transfers": owner])
        let receipt = try Referee.checkInspect(
            in: cli, "receipt.tender", expect: ["receipt": payee], againstPayment: "genuine.tender",
            paymentDigest: made["paymentDigest"] as? String)
        #expect(receipt["paymentDigest"] as? String == made["paymentDigest"] as? String)
    }

    /// Terms signed by anyone but the creator of the paid coins are refused: a stranger, the
    /// issuer (who signed the note, not the transfer making the paid coins), or the payee
    /// itself, whose key the referee derives from the words the payee's wallet was restored
    /// from (m/44'/60'/0'/0/0).
    @Test func paymentsSignedByTheWrongKeyAreRefused() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee", mnemonic: Referee.testWords)
        let signers = [
            ("stranger", Referee.strangerKey), ("issuer", Referee.issuerKey),
            ("payee", Referee.testWords),
        ]
        for (name, key) in signers {
            let made = try Referee.makePayment(
                in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["250"],
                out: "\(name).tender", extra: ["--payment-key", key])
            let owner = try #require(made["owner"] as? String)
            let signer = try #require(made["paymentSigner"] as? String)
            #expect(signer != owner, "\(name)")
            if name == "payee" { #expect(signer == payee) }
            if name == "issuer" { #expect(signer == made["issuer"] as? String) }
            try cli.ok(["trust", "add", made["issuer"] as! String, "--data-dir", cli.path("payee")])
            try expectRefusal(
                cli, "\(name).tender", wallet: "payee",
                ["payment is not signed by \(owner)", "signature recovers to \(signer)"])
        }
        #expect(try cli.balance("payee").spendable == 0)
    }

    /// PROTOCOL.md §5: a paid coin must expire more than the minimum lifetime (3,600 s) after
    /// the payee's clock, and every bundle item must lead to a paid coin: Tender and the referee
    /// draw both lines in the same place.
    @Test func coinLifetimeAndUnrelatedItemsAgreeWithTheReferee() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        let unrelated = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["250"],
            out: "unrelated.tender", extra: ["--unrelated-note"])
        try cli.ok([
            "trust", "add", unrelated["issuer"] as! String, "--data-dir", cli.path("payee"),
        ])
        try expectRefusal(
            cli, "unrelated.tender", wallet: "payee", ["the proof's note #1 leads to no paid coin"])
        let inspection = try cli.ok(["inspect", "--json", cli.path("unrelated.tender")]).stdout
        try inspection.write(
            toFile: cli.path("unrelated.tender.json"), atomically: true, encoding: .utf8)
        let referee = try Referee.run(
            ["check-inspect", cli.path("unrelated.tender.json")], in: cli)
        #expect(referee.status == 1)
        #expect(referee.stderr.contains("note #1 leads to no paid coin"), "\(referee.stderr)")

        let expiry: UInt64 = 1_900_000_000
        let made = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["250"],
            out: "short.tender", expiry: expiry)
        try expectRefusal(
            cli, "short.tender", wallet: "payee", ["a payee needs at least 3600 s"],
            environment: ["TENDER_NOW": String(expiry - 3_600)])
        // The referee draws the line at the same second.
        let shortChecked = try Referee.checkInspect(in: cli, "short.tender", expect: [:])
        #expect(shortChecked["credited"] as? [String] == made["credited"] as? [String])
        let tooSoon = try Referee.run(
            [
                "check-inspect", cli.path("short.tender.json"), "--now", String(expiry - 3_600),
            ], in: cli)
        #expect(tooSoon.status == 1)
        #expect(tooSoon.stderr.contains("not more than 3600 s"), "\(tooSoon.stderr)")
        try Referee.agree(
            ["check-inspect", cli.path("short.tender.json"), "--now", String(expiry - 3_601)],
            in: cli)
        let received = try cli.ok(
            ["receive", cli.path("short.tender"), "--data-dir", cli.path("payee"), "--json"],
            extraEnvironment: ["TENDER_NOW": String(expiry - 3_601)]
        ).json
        #expect(received["coins"] as? [String] == made["credited"] as? [String])
    }

    /// Two referee payments spending the same note differently: `tender` refuses the second
    /// as a double spend, and the evidence it stores is canonical CBOR, its two transfers in
    /// digest order (PROTOCOL.md §7), which the referee re-derives as signed by the same owner
    /// over the same coin.
    @Test func refereeDoubleSpendYieldsEvidenceTheRefereeChecks() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        // Same serial, keys and expiry: the same note, hence the same coin.
        let serial = ["--serial", "0x" + String(repeating: "5e", count: 32)]
        let expiry = UInt64(Date().timeIntervalSince1970) + 86_400
        let first = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["250"],
            out: "first.tender", expiry: expiry, extra: serial)
        let second = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: ["300"],
            out: "second.tender", expiry: expiry, extra: serial)
        #expect(first["noteCoin"] as? String == second["noteCoin"] as? String)
        let owner = try #require(first["owner"] as? String)
        try cli.ok(["trust", "add", first["issuer"] as! String, "--data-dir", cli.path("payee")])
        try cli.ok(["receive", cli.path("first.tender"), "--data-dir", cli.path("payee")])
        let refused = try cli.run([
            "receive", cli.path("second.tender"), "--data-dir", cli.path("payee"),
        ])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("double spend"), "\(refused.stderr)")
        #expect(try cli.balance("payee").spendable == 250)

        try FileManager.default.createDirectory(
            atPath: cli.path("evidence"), withIntermediateDirectories: true)
        try cli.ok(["evidence", "--data-dir", cli.path("payee"), "--out", cli.path("evidence")])
        let shape = try Referee.agree(
            ["check-cbor", cli.path("evidence/evidence-1.tender")], in: cli)
        let digests = try #require(shape["digests"] as? [String])
        #expect(digests.count == 2 && digests[0] < digests[1])
        // The same evidence with its transfers swapped: both sides refuse it.
        try Referee.tamper(
            in: cli, "evidence/evidence-1.tender", field: "evidence-swap", out: "swapped.tender")
        let swapped = try Referee.run(["check-cbor", cli.path("swapped.tender")], in: cli)
        #expect(swapped.status == 1)
        #expect(swapped.stderr.contains("out of digest order"), "\(swapped.stderr)")
        let imported = try cli.run([
            "evidence", "import", cli.path("swapped.tender"), "--data-dir", cli.path("payee"),
        ])
        #expect(imported.status == 65)
        #expect(imported.stderr.contains("not in digest order"), "\(imported.stderr)")
        let evidence = try Referee.checkInspect(
            in: cli, "evidence/evidence-1.tender",
            expect: ["evidence.first": owner, "evidence.second": owner])
        #expect(evidence["checked"] as? Int == 2)
    }

    /// Notes, a payment and a receipt written by `tender` are canonical CBOR to cbor2, and
    /// every digest, signer and coin id re-derives in the referee: the payer recovered from
    /// Tender's signature over the terms is the creator of every paid coin (the issuer for the
    /// notes), and the receipt signs the referee's EIP-712 Payment digest.
    @Test func tenderFilesPassTheReferee() throws {
        let cli = try CLI()
        let issuer = try #require(
            cli.ok([
                "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024", "--json",
            ]).json["issuer"] as? String)
        let payer = try cli.initWallet("payer")
        let payee = try cli.initWallet("payee")
        for wallet in ["payer", "payee"] {
            try cli.ok(["trust", "add", issuer, "--data-dir", cli.path(wallet)])
        }
        try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", payer, "--amount", "1000",
            "--count", "2", "--out", cli.path("notes.tender"),
        ])
        try cli.ok(["receive", cli.path("notes.tender"), "--data-dir", cli.path("payer")])
        let paid = try cli.ok([
            "pay", "--data-dir", cli.path("payer"), "--to", payee, "--amount", "1300", "--memo",
            "referee", "--out", cli.path("payment.tender"), "--json",
        ]).json
        let received = try cli.ok([
            "receive", cli.path("payment.tender"), "--data-dir", cli.path("payee"),
            "--receipt-out", cli.path("receipt.tender"), "--json",
        ]).json

        for file in ["notes.tender", "payment.tender", "receipt.tender"] {
            let shape = try Referee.agree(["check-cbor", cli.path(file)], in: cli)
            #expect(shape["canonical"] as? Bool == true, "\(file)")
        }

        let notes = try Referee.checkInspect(
            in: cli, "notes.tender", expect: ["notes": issuer, "payment": issuer])
        #expect(notes["checked"] as? Int == 3)
        #expect(notes["payer"] as? String == issuer)
        let payment = try Referee.checkInspect(
            in: cli, "payment.tender",
            expect: ["notes": issuer, "transfers": payer, "payment": payer])
        #expect((payment["checked"] as? Int ?? 0) >= 3)
        #expect(payment["credited"] as? [String] == received["coins"] as? [String])
        #expect(payment["payer"] as? String == payer)
        #expect(payment["paymentDigest"] as? String == paid["paymentDigest"] as? String)
        let receipt = try Referee.checkInspect(
            in: cli, "receipt.tender", expect: ["receipt": payee], againstPayment: "payment.tender",
            paymentDigest: payment["paymentDigest"] as? String)
        #expect(receipt["checked"] as? Int == 1)
        #expect(receipt["paymentDigest"] as? String == paid["paymentDigest"] as? String)
    }

    /// The referee alters a payment Tender wrote (its memo, after signing): Tender's payee
    /// refuses it and stores nothing, then accepts the payment as written.
    @Test func tenderPaymentAlteredByTheRefereeIsRefused() throws {
        let (cli, _, alice, bob) = try CLI.alicePaysBob(notes: 1, amount: 500)
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "120", "--memo",
            "two teas", "--out", cli.path("payment.tender"),
        ])
        for field in ["memo", "amount", "requestId"] {
            let forged = "forged-\(field).tender"
            try Referee.tamper(in: cli, "payment.tender", field: field, out: forged)
            try expectRefusal(
                cli, forged, wallet: "bob", ["payment is not signed by \(alice)"])
        }
        try cli.ok(["receive", cli.path("payment.tender"), "--data-dir", cli.path("bob")])
        #expect(try cli.balance("bob").spendable == 120)
    }
}
