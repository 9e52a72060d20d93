import Foundation
import Secp256k1
import Tender
import TenderTestSupport
import Testing

/// Payment integrity through the real CLI (PROTOCOL.md §5): the payer's signature covers every
/// field the payee acts on; what one payment may add to a store is bounded by its own size;
/// coins too close to expiry are neither paid nor counted spendable.
@Suite struct PaymentIntegrityTests {
    let world = World()

    func databaseBytes(_ cli: CLI, _ wallet: String) throws -> [[UInt8]] {
        try ["\(wallet)/wallet.sqlite", "\(wallet)/wallet.sqlite-wal"].map { name in
            FileManager.default.fileExists(atPath: cli.path(name)) ? try cli.bytes(name) : []
        }
    }

    /// A payment file re-encoded with one term changed and the payer's signature kept.
    func altered(_ bytes: [UInt8], _ change: (PaymentTerms) -> PaymentTerms) throws -> [UInt8] {
        let envelope = try Envelope.decode(bytes)
        guard case .payment(let payment) = envelope.message else { throw Failure("not a payment") }
        let forged = Payment(
            Signed(change(payment.terms), signature: payment.signature), bundle: payment.bundle)
        return Envelope(domain: envelope.domain, message: .payment(forged)).encoded()
    }

    @Test func aTermChangedAfterSigningIsRefusedAndTheGenuinePaymentStillLands() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 2, amount: 500)
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "700", "--memo",
            "two teas", "--out", cli.path("payment"),
        ])
        let genuine = try cli.bytes("payment")
        let otherID = try Bytes32([UInt8](repeating: 0x5A, count: 32))
        let changes: [(String, (PaymentTerms) -> PaymentTerms, String)] = [
            ("requestId", { t in terms(t, requestID: otherID) }, "not signed by"),
            ("memo", { t in terms(t, memo: "two teaz") }, "not signed by"),
            ("amount", { t in terms(t, amount: t.amount - 1) }, "not signed by"),
            ("asset", { t in terms(t, asset: world.issuer) }, "not signed by"),
            ("payee", { t in terms(t, payee: world.carol) }, "this wallet is"),
            ("coins", { t in terms(t, coins: []) }, "names no coins"),
        ]
        for (field, change, message) in changes {
            try cli.write(try altered(genuine, change), to: "forged")
            let before = try databaseBytes(cli, "bob")
            let result = try cli.run([
                "receive", cli.path("forged"), "--data-dir", cli.path("bob"), "--receipt-out",
                cli.path("receipt"),
            ])
            #expect(result.status == 65, "\(field): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(field): \(result.stderr)")
            #expect(try databaseBytes(cli, "bob") == before, "\(field) changed the store")
            #expect(!FileManager.default.fileExists(atPath: cli.path("receipt")))
        }
        try cli.ok([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("receipt"),
        ])
        let recorded = try cli.ok([
            "receipt", cli.path("receipt"), "--data-dir", cli.path("alice"), "--json",
        ])
        #expect(recorded.json["state"] as? String == "spent", "\(recorded.stdout)")
    }

    @Test func aReceiptForARequestNeverPaidIsRejectedInput() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 1, amount: 100)
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "10", "--out",
            cli.path("payment"),
        ])
        try cli.ok([
            "receive", cli.path("payment"), "--data-dir", cli.path("bob"), "--receipt-out",
            cli.path("receipt"),
        ])
        try cli.ok(["init", "--data-dir", cli.path("other"), "--scrypt-n", "1024"])
        let result = try cli.run(["receipt", cli.path("receipt"), "--data-dir", cli.path("other")])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("made no payment with request id"), "\(result.stderr)")
    }

    /// The shape an adversarial review used to grow a store 200-fold: one note fanned out
    /// over layers whose transfers each take many inputs of the layer before, so every paid
    /// coin descends from (nearly) the whole bundle. Stored once, it costs a few times its size.
    @Test func aPaymentWhoseCoinsShareAHugeAncestryAddsAFewTimesItsSize() throws {
        let cli = try CLI()
        let bob = try Address(try cli.initWallet("bob"))
        try cli.ok(["trust", "add", world.issuer.checksummed, "--data-dir", cli.path("bob")])
        let payment = fannedOutPayment(to: bob)
        let bytes = Envelope(domain: world.domain, message: .payment(payment)).encoded()
        try cli.write(bytes, to: "payment")
        let size = { (name: String) -> Int in
            ["\(name)/wallet.sqlite", "\(name)/wallet.sqlite-wal"].reduce(0) { sum, file in
                let attributes = try? FileManager.default.attributesOfItem(atPath: cli.path(file))
                return sum + ((attributes?[.size] as? Int) ?? 0)
            }
        }
        let before = size("bob")
        try cli.ok(["receive", cli.path("payment"), "--data-dir", cli.path("bob")])
        let grown = size("bob") - before
        let ratio = Double(grown) / Double(bytes.count)
        print(
            "Storage per payment: \(bytes.count) B payment, \(payment.bundle.transfers.count) transfers, \(payment.coins.count) paid coins: the store grew \(grown) B (\(String(format: "%.1f", ratio))x)"
        )
        #expect(ratio < 5, "the store grew \(grown) B for a \(bytes.count) B payment")
        #expect(try cli.balance("bob").spendable == UInt64(payment.amount))
    }

    /// The shape that costs most per byte (Docs/BENCHMARKS.md): payments of as many coins as
    /// their transfers can make, each coin a row of its own in the payee's store.
    @Test func paymentsOfManyCoinsAddAFewTimesTheirSize() throws {
        let cli = try CLI()
        let bob = try Address(try cli.initWallet("bob"))
        try cli.ok(["trust", "add", world.issuer.checksummed, "--data-dir", cli.path("bob")])
        let file = cli.path("bob/wallet.sqlite")
        let size = { (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }
        let before = size()
        var bytes = 0
        for serial in UInt8(1)...6 {
            let payment = coinHeavyPayment(to: bob, serial: serial)
            let envelope = Envelope(domain: world.domain, message: .payment(payment)).encoded()
            bytes += envelope.count
            try cli.write(envelope, to: "payment-\(serial)")
            try cli.ok(["receive", cli.path("payment-\(serial)"), "--data-dir", cli.path("bob")])
        }
        // Each run of the CLI checkpoints the log into the file as it closes the store.
        let grown = size() - before
        let ratio = Double(grown) / Double(bytes)
        print(
            "Storage of 6 payments of 256 coins: \(bytes) B, the store grew \(grown) B (\(String(format: "%.2f", ratio))x)"
        )
        #expect(ratio < 4.5, "the store grew \(grown) B for \(bytes) B of payments")
        #expect(try cli.balance("bob").spendable == 6 * 256)
    }

    /// A note of 256 → 16 coins of 16 → 16 transfers paying Bob 16 coins of 1 each.
    func coinHeavyPayment(to payee: Address, serial: UInt8) -> Payment {
        let note = world.note(256, serial: serial)
        let fanned = world.transfer(
            [note.coinID(in: world.domain)], Array(repeating: (world.alice, 16), count: 16),
            by: world.aliceKey)
        var bundle = ProofBundle(notes: [note], transfers: [fanned])
        var paid: [CoinID] = []
        for coin in world.outputs(of: fanned) {
            let transfer = world.transfer(
                [coin], Array(repeating: (payee, 1), count: 16), by: world.aliceKey)
            bundle.transfers.append(transfer)
            paid += world.outputs(of: transfer)
        }
        return world.payment(
            bundle, to: payee, amount: 256,
            requestID: try! Bytes32([UInt8](repeating: serial, count: 32)), coins: paid,
            signer: world.aliceKey)
    }

    /// 1 note → 16 coins → 256 coins → 256 one-to-one hops → 8 transfers of 32 inputs (128
    /// coins) → 4 transfers of 32 inputs (64 coins) → 16 transfers of 4 inputs paying Bob 256
    /// coins of 1. Signed by Alice, who owns everything before the last layer.
    func fannedOutPayment(to payee: Address) -> Payment {
        let note = world.note(256)
        var bundle = ProofBundle(notes: [note])
        func layer(
            _ coins: [CoinID], inputs: Int, outputs: Int, each: Amount, to owner: Address
        )
            -> [CoinID]
        {
            stride(from: 0, to: coins.count, by: inputs).flatMap { start in
                let transfer = world.transfer(
                    Array(coins[start..<start + inputs]),
                    Array(repeating: (owner, each), count: outputs), by: world.aliceKey)
                bundle.transfers.append(transfer)
                return world.outputs(of: transfer)
            }
        }
        var coins = [note.coinID(in: world.domain)]
        coins = layer(coins, inputs: 1, outputs: 16, each: 16, to: world.alice)
        coins = layer(coins, inputs: 1, outputs: 16, each: 1, to: world.alice)
        coins = layer(coins, inputs: 1, outputs: 1, each: 1, to: world.alice)
        coins = layer(coins, inputs: 32, outputs: 16, each: 2, to: world.alice)
        coins = layer(coins, inputs: 32, outputs: 16, each: 4, to: world.alice)
        coins = layer(coins, inputs: 4, outputs: 16, each: 1, to: payee)
        return world.payment(bundle, to: payee, amount: 256, coins: coins, signer: world.aliceKey)
    }

    @Test func coinsCloseToExpiryAreRefusedAndNotCountedSpendable() throws {
        let cli = try CLI()
        let at = { (offset: UInt64) in ["TENDER_NOW": String(1_800_000_000 + offset)] }
        let alice = try cli.initWallet("alice")
        let issuer =
            try cli.ok([
                "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024", "--json",
            ]).json["issuer"] as! String
        try cli.ok(["trust", "add", issuer, "--data-dir", cli.path("alice")])
        func issue(_ seconds: Int, _ file: String) throws {
            try cli.ok(
                [
                    "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", alice,
                    "--amount", "100", "--expires-in", String(seconds), "--out", cli.path(file),
                ], extraEnvironment: at(0))
        }
        // Notes that live less than the hour a payee needs are refused, by name.
        try issue(600, "short")
        let before = try databaseBytes(cli, "alice")
        let refused = try cli.run(
            ["receive", cli.path("short"), "--data-dir", cli.path("alice")],
            extraEnvironment: at(0))
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("needs at least 3600 s"), "\(refused.stderr)")
        #expect(try databaseBytes(cli, "alice") == before)

        // Two hours of life: spendable now, expiring after one hour, expired after two.
        try issue(7200, "notes")
        try cli.ok(
            ["receive", cli.path("notes"), "--data-dir", cli.path("alice")],
            extraEnvironment: at(0))
        func balance(at offset: UInt64) throws -> [String: String] {
            let json = try cli.ok(
                ["balance", "--data-dir", cli.path("alice"), "--json"],
                extraEnvironment: at(offset)
            ).json
            return ((json["assets"] as? [[String: Any]])?.first ?? [:]).compactMapValues {
                $0 as? String
            }
        }
        #expect(try balance(at: 0)["spendable"] == "100")
        #expect(try balance(at: 4000)["spendable"] == "0")
        #expect(try balance(at: 4000)["expiring"] == "100")
        #expect(try balance(at: 8000)["expired"] == "100")
        #expect(try balance(at: 8000)["receivedUnsettled"] == "0")
        let pay = try cli.run(
            [
                "pay", "--data-dir", cli.path("alice"), "--to", world.bob.checksummed, "--amount",
                "10", "--out", cli.path("payment"),
            ], extraEnvironment: at(4000))
        #expect(pay.status == 65, "\(pay.stderr)")
        // The coin has no name here: its amounts read as base units, said so.
        #expect(pay.stderr.contains("spendable 0 base units"), "\(pay.stderr)")
        #expect(
            pay.stderr.contains("100 base units expiring too soon to pay with"), "\(pay.stderr)")
    }
}

/// `terms` with the named fields replaced.
private func terms(
    _ terms: PaymentTerms, requestID: Bytes32? = nil, payee: Address? = nil, amount: Amount? = nil,
    asset: Address? = nil, memo: String? = nil, coins: [CoinID]? = nil
) -> PaymentTerms {
    PaymentTerms(
        requestID: requestID ?? terms.requestID, payee: payee ?? terms.payee,
        amount: amount ?? terms.amount, asset: asset ?? terms.asset, memo: memo ?? terms.memo,
        coins: coins ?? terms.coins)
}
