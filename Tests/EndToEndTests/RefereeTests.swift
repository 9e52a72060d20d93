import Foundation
import TenderTestSupport
import Testing

/// The Python referee (Referee/referee.py): an independent implementation of Tender's wire
/// format and EIP-712 signatures on eth-account, eth-hash and cbor2 (DESIGN.md §7). A test
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

    /// Fixed test keys for the referee's issuer and payer (well known; never hold real funds).
    static let issuerKey = "0x" + String(repeating: "11", count: 32)
    static let ownerKey = "0x" + String(repeating: "22", count: 32)

    /// Has the referee sign a note of `noteAmount` to its own payer and a transfer paying `pay`
    /// of it to `payee` (change back), for `wallet`'s domain unless `chainID` overrides it.
    static func makePayment(
        in cli: CLI, wallet: String, payee: String, noteAmount: String, pay: String, out: String,
        chainID: String? = nil, expiry: UInt64 = UInt64(Date().timeIntervalSince1970) + 86_400,
        extra: [String] = []
    ) throws -> [String: Any] {
        let domain = try cli.ok(["address", "--data-dir", cli.path(wallet), "--json"]).json
        return try agree(
            [
                "make-payment", "--issuer-key", issuerKey, "--owner-key", ownerKey, "--payee",
                payee,
                "--chain-id", chainID ?? domain["chainId"] as! String, "--vault",
                domain["vault"] as! String, "--expiry", String(expiry), "--note-amount", noteAmount,
                "--pay", pay, "--memo", "from the referee", "--out", cli.path(out),
            ] + extra, in: cli)
    }

    /// Writes `tender inspect --json FILE` beside it and has the referee re-derive everything
    /// in it; `expect` pins signers ("notes", "transfers", "receipt" → address).
    @discardableResult
    static func checkInspect(
        in cli: CLI, _ file: String, expect: [String: String], againstPayment: String? = nil
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
    /// A payment built entirely by the referee (cbor2, eth-account, keccak) is accepted by
    /// `tender receive`, which credits exactly the coin ids the referee computed.
    @Test func refereePaymentIsAcceptedByTender() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        let made = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: "250",
            out: "referee.tender")
        let issuer = try #require(made["issuer"] as? String)
        let owner = try #require(made["owner"] as? String)
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
            in: cli, "referee.tender", expect: ["notes": issuer, "transfers": owner])
        #expect(checked["checked"] as? Int == 2)
        #expect(checked["credited"] as? [String] == made["credited"] as? [String])
    }

    /// Signed for another chain, or with the payee's amount raised after signing, the
    /// referee's payment is refused (exit 65) for the right reason and credits nothing.
    @Test func tamperedRefereePaymentsAreRefused() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        let chainID = try #require(
            cli.ok(["address", "--data-dir", cli.path("payee"), "--json"]).json["chainId"]
                as? String)
        let otherChain = String(try #require(UInt64(chainID)) + 1)

        let wrongChain = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: "250",
            out: "wrong-chain.tender", chainID: otherChain)
        try cli.ok([
            "trust", "add", wrongChain["issuer"] as! String, "--data-dir", cli.path("payee"),
        ])
        let refusedChain = try cli.run([
            "receive", cli.path("wrong-chain.tender"), "--data-dir", cli.path("payee"),
        ])
        #expect(refusedChain.status == 65)
        #expect(refusedChain.stderr.contains("wrong chain id"), "\(refusedChain.stderr)")
        #expect(
            refusedChain.stderr.contains("signed for chain \(otherChain)"), "\(refusedChain.stderr)"
        )

        let inflated = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: "250",
            out: "inflated.tender", extra: ["--inflate-after-signing", "100"])
        #expect(inflated["amount"] as? String == "350")
        let refusedSignature = try cli.run([
            "receive", cli.path("inflated.tender"), "--data-dir", cli.path("payee"),
        ])
        #expect(refusedSignature.status == 65)
        let owner = try #require(inflated["owner"] as? String)
        #expect(
            refusedSignature.stderr.contains("transfer #0 is not signed by the owner \(owner)"),
            "\(refusedSignature.stderr)")

        let balance = try cli.balance("payee")
        #expect(balance.spendable == 0)
        #expect(balance.pending == 0)
        #expect(balance.inDoubt == 0)
    }

    /// Two referee payments spending the same note differently: `tender` refuses the second
    /// as a double spend, and the evidence it stores is canonical CBOR whose two transfers the
    /// referee re-derives as signed by the same owner over the same coin.
    @Test func refereeDoubleSpendYieldsEvidenceTheRefereeChecks() throws {
        let cli = try CLI()
        let payee = try cli.initWallet("payee")
        // Same serial, keys and expiry: the same note, hence the same coin.
        let serial = ["--serial", "0x" + String(repeating: "5e", count: 32)]
        let expiry = UInt64(Date().timeIntervalSince1970) + 86_400
        let first = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: "250",
            out: "first.tender", expiry: expiry, extra: serial)
        let second = try Referee.makePayment(
            in: cli, wallet: "payee", payee: payee, noteAmount: "1000", pay: "300",
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
        try Referee.agree(["check-cbor", cli.path("evidence/evidence-1.tender")], in: cli)
        let evidence = try Referee.checkInspect(
            in: cli, "evidence/evidence-1.tender",
            expect: ["evidence.first": owner, "evidence.second": owner])
        #expect(evidence["checked"] as? Int == 2)
    }

    /// Notes, a payment and a receipt written by `tender` are canonical CBOR to cbor2, and
    /// every digest, signer, coin id and the receipt's payment digest re-derive in the referee.
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

        let notes = try Referee.checkInspect(in: cli, "notes.tender", expect: ["notes": issuer])
        #expect(notes["checked"] as? Int == 2)
        let payment = try Referee.checkInspect(
            in: cli, "payment.tender", expect: ["notes": issuer, "transfers": payer])
        #expect((payment["checked"] as? Int ?? 0) >= 2)
        #expect(payment["credited"] as? [String] == (received["coins"] as? [String])?.sorted())
        let receipt = try Referee.checkInspect(
            in: cli, "receipt.tender", expect: ["receipt": payee], againstPayment: "payment.tender")
        #expect(receipt["checked"] as? Int == 1)
        #expect(receipt["paymentDigest"] as? String == paid["paymentDigest"] as? String)
    }
}
