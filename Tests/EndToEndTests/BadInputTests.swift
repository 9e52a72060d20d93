import Codecs
import Foundation
import Secp256k1
import Tender
import TenderTestSupport
import Testing

/// Hostile and broken payments, each refused by the real CLI with exit status 65, a message
/// naming what was wrong, and the wallet database left byte for byte as it was.
@Suite struct BadInputTests {
    let world = World()

    /// Bob's CLI wallet trusting the test world's issuer, and his address.
    func bobWallet() throws -> (CLI, Address) {
        let cli = try CLI()
        let bob = try Address(try cli.initWallet("bob"))
        try cli.ok(["trust", "add", world.issuer.checksummed, "--data-dir", cli.path("bob")])
        return (cli, bob)
    }

    func envelope(
        _ bundle: ProofBundle, to payee: Address, amount: Amount, domain: Domain? = nil,
        id: UInt8 = 1, signer: PrivateKey? = nil
    )
        -> [UInt8]
    {
        let payment = world.payment(
            bundle, to: payee, amount: amount,
            requestID: try! Bytes32([UInt8](repeating: id, count: 32)), signer: signer)
        return Envelope(domain: domain ?? world.domain, message: .payment(payment)).encoded()
    }

    func databaseBytes(_ cli: CLI) throws -> [[UInt8]] {
        try ["bob/wallet.sqlite", "bob/wallet.sqlite-wal"].map { name in
            FileManager.default.fileExists(atPath: cli.path(name)) ? try cli.bytes(name) : []
        }
    }

    /// Receives `bytes` and requires a refusal mentioning `message` that changed nothing.
    func expectRefused(
        _ cli: CLI, _ bytes: [UInt8], _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try cli.write(bytes, to: "bad")
        let before = try databaseBytes(cli)
        let result = try cli.run([
            "receive", cli.path("bad"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("receipt"),
        ])
        #expect(result.status == 65, "\(message): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains(message), "expected '\(message)' in: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            try databaseBytes(cli) == before, "database changed for '\(message)'",
            sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: cli.path("receipt")),
            sourceLocation: sourceLocation)
    }

    @Test func malformedBytes() throws {
        let (cli, bob) = try bobWallet()
        try expectRefused(cli, Array("hello, I am a payment".utf8), "malformed")
        let good = envelope(ProofBundle(notes: [world.note(10, to: bob)]), to: bob, amount: 10)
        try expectRefused(cli, Array(good.prefix(good.count - 7)), "malformed")
        try expectRefused(cli, good + [0], "malformed")
        try expectRefused(cli, Array(good.dropFirst(3)), "missing the d9d9f7")
        try expectRefused(cli, good + [UInt8](repeating: 0, count: Envelope.maxBytes), "too large")
        // A byte string declaring far more bytes than the file holds.
        try expectRefused(
            cli, [0xD9, 0xD9, 0xF7, 0x5B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            "malformed")
    }

    @Test func forgedTamperedAndMisdirected() throws {
        let (cli, bob) = try bobWallet()
        let note = world.note(100)  // to Alice
        let coin = note.coinID(in: world.domain)
        let pay = world.transfer([coin], [(bob, 60), (world.alice, 40)], by: world.aliceKey)

        // Another chain, another vault.
        let otherChain = Domain(chainID: 1, vault: world.domain.vault)
        try expectRefused(
            cli,
            envelope(
                ProofBundle(notes: [note], transfers: [pay]), to: bob, amount: 60,
                domain: otherChain), "wrong chain id")
        try expectRefused(
            cli,
            envelope(
                ProofBundle(notes: [note], transfers: [pay]), to: bob, amount: 60,
                domain: Domain(chainID: 31337, vault: world.alice)), "wrong vault")

        // Alice signs a note in the issuer's name.
        let fake = Note(
            serial: .zero, issuer: world.issuer, asset: .zero, amount: 100, owner: bob,
            expiry: world.expiry)
        let forged = SignedNote(
            note: fake,
            signature: try world.aliceKey.sign(digest: fake.digest(in: world.domain).bytes))
        try expectRefused(
            cli, envelope(ProofBundle(notes: [forged]), to: bob, amount: 100),
            "not signed by its issuer")

        // Two notes with their signatures swapped.
        let other = world.note(50, to: bob, serial: 2)
        let mine = world.note(70, to: bob, serial: 3)
        let swapped = [
            SignedNote(note: other.note, signature: mine.signature),
            SignedNote(note: mine.note, signature: other.signature),
        ]
        try expectRefused(
            cli, envelope(ProofBundle(notes: swapped), to: bob, amount: 120),
            "not signed by its issuer")

        // Bob's output raised after Alice signed.
        let raised = SignedTransfer(
            transfer: Transfer(inputs: [coin], outputs: [Output(owner: bob, amount: 100)]),
            signature: pay.signature)
        try expectRefused(
            cli, envelope(ProofBundle(notes: [note], transfers: [raised]), to: bob, amount: 100),
            "not signed by the owner")

        // A signature with a flipped byte.
        var bytes = envelope(ProofBundle(notes: [note], transfers: [pay]), to: bob, amount: 60)
        let signature = pay.signature.bytes
        let at = try #require(
            bytes.indices.first { Array(bytes[$0..<min($0 + 65, bytes.count)]) == signature })
        bytes[at + 10] ^= 0x40
        try expectRefused(cli, bytes, "rejected")

        // Outputs above inputs, properly signed.
        let inflated = world.transfer([coin], [(bob, 200)], by: world.aliceKey)
        try expectRefused(
            cli, envelope(ProofBundle(notes: [note], transfers: [inflated]), to: bob, amount: 200),
            "breaks conservation")

        // The payment claims more than the coins give Bob.
        try expectRefused(
            cli, envelope(ProofBundle(notes: [note], transfers: [pay]), to: bob, amount: 61),
            "sum to 60")
    }

    @Test func expiredUntrustedAndTooManyHops() throws {
        let (cli, bob) = try bobWallet()
        try expectRefused(
            cli,
            envelope(
                ProofBundle(notes: [world.note(10, to: bob, expiry: 1_000)]), to: bob, amount: 10),
            "expired")

        let stranger = key(0x77)
        let strangerNote = try SignedNote(
            signing: Note(
                serial: .zero, issuer: Address(publicKey: stranger.publicKey), asset: .zero,
                amount: 10, owner: bob, expiry: world.expiry),
            with: stranger, in: world.domain)
        try expectRefused(
            cli,
            envelope(ProofBundle(notes: [strangerNote]), to: bob, amount: 10, signer: stranger),
            "not trusted")

        // Nine hops between Alice and Carol, then to Bob.
        var bundle = ProofBundle(notes: [world.note(10)])
        var coin = bundle.notes[0].coinID(in: world.domain)
        var holder = world.aliceKey
        for hop in 0..<9 {
            let next = hop == 8 ? nil : (hop % 2 == 0 ? world.carolKey : world.aliceKey)
            let owner = next.map { Address(publicKey: $0.publicKey) } ?? bob
            let transfer = world.transfer([coin], [(owner, 10)], by: holder)
            bundle.transfers.append(transfer)
            coin = world.outputs(of: transfer)[0]
            if let next { holder = next }
        }
        try expectRefused(cli, envelope(bundle, to: bob, amount: 10), "hops from its note")
    }

    /// A double spend of a coin from an issuer this wallet does not trust is bad input like
    /// any other: refused, and no evidence row (a file could otherwise grow the database).
    @Test func anUntrustedIssuersDoubleSpendLeavesNoEvidence() throws {
        let (cli, bob) = try bobWallet()
        let stranger = key(0x77)
        let note = try SignedNote(
            signing: Note(
                serial: try Bytes32([UInt8](repeating: 9, count: 32)),
                issuer: Address(publicKey: stranger.publicKey), asset: world.asset, amount: 100,
                owner: world.alice, expiry: world.expiry),
            with: stranger, in: world.domain)
        let coin = note.coinID(in: world.domain)
        let first = world.transfer([coin], [(bob, 60), (world.alice, 40)], by: world.aliceKey)
        let second = world.transfer([coin], [(bob, 70), (world.alice, 30)], by: world.aliceKey)
        try expectRefused(
            cli,
            envelope(ProofBundle(notes: [note], transfers: [first, second]), to: bob, amount: 60),
            "double spend")
    }

    /// Bob's wallet after Alice paid him 60 of her note of 100 (40 back to her): the wallet,
    /// Bob, the note and Alice's transfer.
    func bobPaidByAlice() throws -> (CLI, Address, SignedNote, SignedTransfer) {
        let (cli, bob) = try bobWallet()
        let note = world.note(100)
        let first = world.transfer(
            [note.coinID(in: world.domain)], [(bob, 60), (world.alice, 40)], by: world.aliceKey)
        try cli.write(
            envelope(ProofBundle(notes: [note], transfers: [first]), to: bob, amount: 60),
            to: "first")
        try cli.ok(["receive", cli.path("first"), "--data-dir", cli.path("bob")])
        return (cli, bob, note, first)
    }

    @Test func replayAndDoubleSpend() throws {
        let (cli, bob, note, first) = try bobPaidByAlice()
        let coin = note.coinID(in: world.domain)
        #expect(try cli.balance("bob") == (60, 0, 0))

        // The same coins under a new request id.
        try expectRefused(
            cli,
            envelope(ProofBundle(notes: [note], transfers: [first]), to: bob, amount: 60, id: 2),
            "already received")

        // Alice spends the same note again, differently: refused, and the proof is kept.
        let second = world.transfer([coin], [(bob, 70), (world.alice, 30)], by: world.aliceKey)
        try cli.write(
            envelope(ProofBundle(notes: [note], transfers: [second]), to: bob, amount: 70, id: 3),
            to: "second")
        let refused = try cli.run(["receive", cli.path("second"), "--data-dir", cli.path("bob")])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("double spend"))
        #expect(try cli.balance("bob") == (60, 0, 0))
        let evidence =
            try cli.ok([
                "evidence", "--data-dir", cli.path("bob"), "--json", "--out",
                cli.workDirectory.path,
            ]).json["evidence"] as! [[String: Any]]
        #expect(evidence.count == 1)
        #expect(evidence.first?["coin"] as? String == coin.hex)
        #expect(evidence.first?["spender"] as? String == world.alice.checksummed)
        // The stored proof is a self-contained file anyone can check.
        let proof = try Envelope.decode(try cli.bytes("evidence-1.tender"), expecting: world.domain)
        guard case .evidence(let decoded) = proof.message else {
            Issue.record("not evidence"); return
        }
        try decoded.verify(in: world.domain)
        #expect(Set([decoded.first, decoded.second]) == Set([first, second]))
        // Seeing it again does not duplicate it.
        _ = try cli.run(["receive", cli.path("second"), "--data-dir", cli.path("bob")])
        #expect(
            (try cli.ok(["evidence", "--data-dir", cli.path("bob"), "--json"]).json["evidence"]
                as! [Any]).count == 1)
    }
}

extension BadInputTests {
    /// A stranger's two "spends" of a coin it does not own prove nothing: `evidence import`
    /// refuses them naming the owner, and however many different double spends of one coin
    /// arrive (refused payments, imported files), the wallet keeps one proof of it.
    @Test func forgedEvidenceIsRefusedAndOneProofIsKeptPerCoin() throws {
        let (cli, bob, note, _) = try bobPaidByAlice()
        let coin = note.coinID(in: world.domain)
        func evidenceCount() throws -> Int {
            (try cli.ok(["evidence", "--data-dir", cli.path("bob"), "--json"]).json["evidence"]
                as! [Any]).count
        }

        let stranger = key(0x78)
        let forged = try DoubleSpendEvidence(
            coin: coin, world.transfer([coin], [(bob, 100)], by: stranger),
            world.transfer([coin], [(world.alice, 100)], by: stranger), in: world.domain)
        try cli.write(
            Envelope(domain: world.domain, message: .evidence(forged)).encoded(), to: "forged")
        let refused = try cli.run([
            "evidence", "import", cli.path("forged"), "--data-dir", cli.path("bob"),
        ])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("not by \(world.alice.checksummed)"), "\(refused.stderr)")
        #expect(try evidenceCount() == 0)

        for index in 0..<4 {
            let again = world.transfer(
                [coin], [(bob, 61 + Amount(index)), (world.alice, 39 - Amount(index))],
                by: world.aliceKey)
            try cli.write(
                envelope(
                    ProofBundle(notes: [note], transfers: [again]), to: bob,
                    amount: 61 + Amount(index), id: UInt8(10 + index)), to: "again")
            #expect(
                try cli.run(["receive", cli.path("again"), "--data-dir", cli.path("bob")]).status
                    == 65)
        }
        let genuine = try DoubleSpendEvidence(
            coin: coin, world.transfer([coin], [(bob, 1), (world.alice, 99)], by: world.aliceKey),
            world.transfer([coin], [(bob, 2), (world.alice, 98)], by: world.aliceKey),
            in: world.domain)
        try cli.write(
            Envelope(domain: world.domain, message: .evidence(genuine)).encoded(), to: "genuine")
        try cli.ok(["evidence", "import", cli.path("genuine"), "--data-dir", cli.path("bob")])
        #expect(try evidenceCount() == 1)
    }
}

extension BadInputTests {
    /// One genuine payment received by many processes at once (a payer retrying while the
    /// node takes it): each answers with the receipt, none says it was "paid by a different
    /// payment", and it is credited once. Whatever the processes' order, the outcome is this.
    @Test func oneGenuinePaymentReceivedAtOnceByManyProcessesIsAnsweredByEach() throws {
        let (cli, bob) = try bobWallet()
        let note = world.note(100)
        let spend = world.transfer(
            [note.coinID(in: world.domain)], [(bob, 60), (world.alice, 40)], by: world.aliceKey)
        try cli.write(
            envelope(ProofBundle(notes: [note], transfers: [spend]), to: bob, amount: 60),
            to: "payment")
        // All started before any is waited for: they run side by side.
        let processes = try (0..<24).map { _ in
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["receive", cli.path("payment"), "--data-dir", cli.path("bob")]
            process.environment = cli.environment
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            return (process, errors)
        }
        for (process, errors) in processes {
            let stderr = String(
                decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(stderr)")
        }
        #expect(try cli.balance("bob") == (60, 0, 0))
    }
}

/// `tender sync` with a chain it cannot use: nothing is signed, nothing in the wallet moves.
@Suite struct SyncEndpointTests {
    @Test func anUnreachableEndpointIsNamedAndChangesNothing() throws {
        let cli = try CLI()
        _ = try cli.initWallet("bob")
        let before = try cli.bytes("bob/wallet.sqlite")
        let result = try cli.run([
            "sync", "--once", "--rpc", "http://127.0.0.1:9", "--data-dir", cli.path("bob"),
        ])
        #expect(result.status == 74)
        #expect(result.stderr.contains("cannot reach http://127.0.0.1:9"))
        #expect(result.stderr.contains("--rpc"))
        #expect(try cli.bytes("bob/wallet.sqlite") == before)
    }

    @Test func onceAndWatchTogetherAreAUsageError() throws {
        let cli = try CLI()
        let result = try cli.run(["sync", "--once", "--watch"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("choose --once or --watch"))
    }

    /// Numbers and URLs no setting could hold are refused before anything runs (a port past
    /// 65535 trapped the HTTP client; an unbounded wait trapped Duration).
    @Test func outOfRangeFlagsAreAUsageError() throws {
        let cli = try CLI()
        for (flags, named) in [
            (["--rpc", "http://127.0.0.1:99999/"], "--rpc"),
            (["--rpc", "http://user:secret@[::1]:70000/"], "***@"),
            (["--confirmations", "18446744073709551615"], "--confirmations"),
            (["--watch", "--interval", "1e308"], "--interval"),
            (["--watch", "--interval", "1e-300"], "--interval"),
            (["--timeout", "inf"], "--timeout"),
        ] {
            let result = try cli.run(["sync"] + flags)
            #expect(result.status == 64, "\(flags): \(result.stderr)")
            #expect(result.stderr.contains(named), "\(flags): \(result.stderr)")
            #expect(!result.stderr.contains("secret"), "\(flags): \(result.stderr)")
        }
        let deploy = try cli.run(["vault", "deploy", "--rpc", "http://127.0.0.1:65536"])
        #expect(deploy.status == 64, "\(deploy.stderr)")
    }

    /// An endpoint's credentials stay in chains.toml: `chain add` (its warning too), `chain
    /// list` (text or JSON) and `sync --json` show the URL without them.
    @Test func chainCommandsNeverShowAnEndpointsCredentials() throws {
        let cli = try CLI()
        _ = try cli.initWallet("bob")
        let url = "https://user:s3cret@rpc.example:8545/v3/PATHSECRET?key=QUERYSECRET"
        let vault = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
        // The endpoint does not answer here: the entry is written, with a warning naming it.
        let added = try cli.ok([
            "chain", "add", "--id", "10", "--vault", vault, "--rpc", url, "--data-dir",
            cli.path("bob"),
        ])
        #expect(added.stderr.contains("warning: the vault is not checked"), "\(added.stderr)")
        let shown = [
            added.stdout, added.stderr,
            try cli.ok(["chain", "list", "--data-dir", cli.path("bob")]).stdout,
            try cli.ok(["chain", "list", "--json", "--data-dir", cli.path("bob")]).stdout,
        ]
        // A sync through it (no network here: it fails) names the endpoint it tried. (The
        // chain lab checks `sync --json` through a reachable one.)
        let synced = try cli.run(["sync", "--json", "--rpc", url, "--data-dir", cli.path("bob")])
        for text in shown + [synced.stderr] {
            #expect(text.contains("rpc.example"), "\(text)")
            for secret in ["s3cret", "PATHSECRET", "QUERYSECRET"] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }
}

extension BadInputTests {
    /// A payee with a floor refuses a payment it did not ask for below it, before checking
    /// anything else and changing nothing; one at the floor is taken, and so is one for its
    /// own request, whatever the request's amount.
    @Test func aPaymentWithoutARequestBelowTheFloorIsRefused() throws {
        let (cli, bob) = try bobWallet()
        let bobDir = cli.path("bob")
        try cli.ok(["trust", "floor", "50", "--data-dir", bobDir])
        let floors = try cli.ok(["trust", "floor", "--data-dir", bobDir, "--json"]).json["floors"]
        #expect((floors as! [[String: Any]]).map { $0["amount"] as! String } == ["50"])

        let note = world.note(200)
        let coin = note.coinID(in: world.domain)
        let dust = world.transfer([coin], [(bob, 40), (world.alice, 160)], by: world.aliceKey)
        try expectRefused(
            cli, envelope(ProofBundle(notes: [note], transfers: [dust]), to: bob, amount: 40),
            "a payment of 40 base units without a request is below this payee's floor of 50")
        // With the coin named, the refusal reads as the payee reads amounts.
        try cli.ok([
            "chain", "add", "--data-dir", bobDir, "--id", String(world.domain.chainID), "--vault",
            world.domain.vault.checksummed, "--rpc", "http://127.0.0.1:9", "--native-symbol",
            "DEV", "--native-decimals", "2",
        ])
        try expectRefused(
            cli, envelope(ProofBundle(notes: [note], transfers: [dust]), to: bob, amount: 40),
            "a payment of 0.40 DEV without a request is below this payee's floor of 0.50 DEV")
        try cli.ok([
            "chain", "remove", "--data-dir", bobDir, "--id", String(world.domain.chainID),
            "--vault", world.domain.vault.checksummed,
        ])

        let asked =
            try cli.ok([
                "request", "--amount", "10", "--qr", "svg", "--out", cli.path("request.svg"),
                "--data-dir", bobDir, "--json",
            ]).json["requestId"] as! String
        let small = world.transfer([coin], [(bob, 10), (world.alice, 190)], by: world.aliceKey)
        let payment = world.payment(
            ProofBundle(notes: [note], transfers: [small]), to: bob, amount: 10,
            requestID: try Bytes32(try Hex.decode(asked)))
        try cli.write(
            Envelope(domain: world.domain, message: .payment(payment)).encoded(), to: "asked")
        try cli.ok(["receive", cli.path("asked"), "--data-dir", bobDir])

        let other = world.note(80)
        let enough = world.transfer(
            [other.coinID(in: world.domain)], [(bob, 50), (world.alice, 30)], by: world.aliceKey)
        try cli.write(
            envelope(ProofBundle(notes: [other], transfers: [enough]), to: bob, amount: 50, id: 7),
            to: "enough")
        try cli.ok(["receive", cli.path("enough"), "--data-dir", bobDir])
        #expect(try cli.balance("bob") == (60, 0, 0))

        try cli.ok(["trust", "floor", "--off", "--data-dir", bobDir])
        let none = try cli.ok(["trust", "floor", "--data-dir", bobDir, "--json"]).json
        #expect((none["floors"] as! [Any]).isEmpty && none["unlisted"] as? String == "take")
        #expect(try cli.run(["trust", "floor", "--off", "--data-dir", bobDir]).status == 66)
        let zero = try cli.run(["trust", "floor", "0", "--data-dir", bobDir])
        #expect(zero.status == 64 && zero.stderr.contains("--off"), "\(zero.stderr)")

        // Refusing every asset without a floor: a stranger's asset gets nothing in.
        try cli.ok(["trust", "floor", "--unlisted", "refuse", "--data-dir", bobDir])
        let third = world.note(90)
        let unasked = world.transfer(
            [third.coinID(in: world.domain)], [(bob, 90)], by: world.aliceKey)
        try expectRefused(
            cli,
            envelope(ProofBundle(notes: [third], transfers: [unasked]), to: bob, amount: 90, id: 8),
            "in an asset this payee set no floor for")
    }
}
