import Foundation
import Testing

/// Amounts as people read and type them (Docs/OPERATIONS.md, "Amounts"): a chain's coin named
/// in the registry (`tender chain add --native-symbol`) turns `--amount 1.30` into base units
/// and every amount a person reads into `1.30 DEV`; `--json` and the payment files stay in
/// base units; a wallet that knows no symbol for the coin reads and types base units.
@Suite struct AmountDisplayTests {
    static let vault = "0x5FbDB2315678afecb367f032d93F642f64180aa3"

    @Test func aConfiguredCoinIsTypedAndReadWithItsSymbolAndDecimals() throws {
        let (cli, _, _, bob) = try CLI.alicePaysBob(notes: 3, amount: 100)
        try cli.ok([
            "chain", "add", "--data-dir", cli.path("alice"), "--id", "31337", "--vault",
            Self.vault, "--rpc", "http://127.0.0.1:9", "--native-symbol", "DEV",
            "--native-decimals", "2",
        ])
        // Changing another setting of the entry keeps its coin (and everything else not given).
        try cli.ok([
            "chain", "add", "--data-dir", cli.path("alice"), "--id", "31337", "--vault",
            Self.vault, "--rpc", "http://127.0.0.1:9", "--dust", "redeem",
        ])
        let listed = try cli.ok(["chain", "list", "--data-dir", cli.path("alice")]).stdout
        #expect(listed.contains("its coin DEV (2 decimals)"), "\(listed)")
        #expect(listed.contains("coins redeemed whatever their gas"), "\(listed)")
        let balance = try cli.ok(["balance", "--data-dir", cli.path("alice")]).stdout
        #expect(balance.contains("Asset: native coin (DEV)"), "\(balance)")
        #expect(balance.contains("spendable           3.00 DEV"), "\(balance)")

        // More decimals than the coin has, another coin's symbol: refused, nothing paid.
        for (typed, why) in [
            ("1.305", "has 3 decimals; DEV has 2"), ("1.30 ETH", "not an amount in DEV"),
            ("0.00", "more than zero"),
        ] {
            let refused = try cli.run([
                "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", typed, "--out",
                cli.path("refused"),
            ])
            #expect(
                refused.status == 64 && refused.stderr.contains(why), "\(typed): \(refused.stderr)")
        }
        #expect(try cli.balance("alice").spendable == 300)
        // More than the wallet holds: the refusal speaks the coin's units too.
        let tooMuch = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "9.00", "--out",
            cli.path("refused"),
        ])
        #expect(
            tooMuch.status == 65
                && tooMuch.stderr.contains("insufficient funds: need 9.00 DEV, spendable 3.00 DEV"),
            "\(tooMuch.stderr)")
        #expect(try cli.balance("alice").spendable == 300)

        let paid = try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "1.30", "--out",
            cli.path("to-bob"),
        ])
        #expect(paid.stdout.hasPrefix("Paid 1.30 DEV to \(bob)"), "\(paid.stdout)")
        #expect(try cli.balance("alice") == (170, 130, 0))

        // Bob names no coin: base units, said so; the file carried base units.
        let received = try cli.ok(["receive", cli.path("to-bob"), "--data-dir", cli.path("bob")])
        #expect(received.stdout.hasPrefix("Received 130 base units (native coin) in"))
        #expect(try cli.balance("bob").spendable == 130)
        let bobBalance = try cli.ok(["balance", "--data-dir", cli.path("bob")]).stdout
        #expect(bobBalance.contains("spendable           130 base units"), "\(bobBalance)")

        // --json stays in base units; what people read does not.
        let json = try cli.ok(["payments", "list", "--data-dir", cli.path("alice"), "--json"]).json
        let payments = json["payments"] as? [[String: Any]] ?? []
        #expect(payments.map { $0["amount"] as? String } == ["130"])
        let history = try cli.ok(["history", "--data-dir", cli.path("alice")]).stdout
        #expect(history.contains("out  1.30 DEV  to \(bob)"), "\(history)")

        // A request in the coin's units, and its code's lines.
        let request = try cli.ok([
            "request", "--data-dir", cli.path("alice"), "--amount", "0.05", "--qr", "svg",
            "--out", cli.path("code.svg"), "--json",
        ]).json
        #expect((request["uri"] as? String)?.contains("amount=5&") == true, "\(request)")
        // Scanned, its code reads in the coin's units where the chain's coin is named.
        try cli.ok([
            "request", "--data-dir", cli.path("alice"), "--amount", "0.05", "--qr", "png",
            "--out", cli.path("code.png"),
        ])
        let scanned = try cli.ok([
            "scan", "--image", cli.path("code.png"), "--data-dir", cli.path("alice"),
        ]).stdout
        #expect(scanned.contains("pay 0.05 DEV (5 base units) of the native coin"), "\(scanned)")
        let scannedByBob = try cli.ok([
            "scan", "--image", cli.path("code.png"), "--data-dir", cli.path("bob"),
        ]).stdout
        #expect(scannedByBob.contains("pay 5 base units of the native coin"), "\(scannedByBob)")

        // The registry keeps the coin, and says it.
        let chains = try cli.ok(["chain", "list", "--data-dir", cli.path("alice")]).stdout
        #expect(chains.contains("its coin DEV (2 decimals)"), "\(chains)")
        let toml = try String(contentsOfFile: cli.path("alice/chains.toml"), encoding: .utf8)
        #expect(toml.contains("native-symbol = \"DEV\"\nnative-decimals = 2"), "\(toml)")
    }

    @Test func aKnownChainsCoinNeedsNoConfigurationAndABadOneIsRefused() throws {
        let cli = try CLI()
        _ = try cli.ok([
            "init", "--data-dir", cli.path("mainnet"), "--scrypt-n", "1024", "--chain-id", "1",
            "--vault", Self.vault,
        ])
        let issuer =
            try cli.ok([
                "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024", "--json",
            ]).json["issuer"] as! String
        try cli.ok(["trust", "add", issuer, "--data-dir", cli.path("mainnet")])
        let me = try cli.ok(["address", "--data-dir", cli.path("mainnet")]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Chain 1's coin is ETH with 18 decimals, for the issuer too.
        let issued = try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--chain-id", "1", "--vault",
            Self.vault, "--to", me, "--amount", "0.25", "--out", cli.path("notes"),
        ])
        #expect(issued.stdout.hasPrefix("Issued 1 note(s) of 0.25 ETH to"), "\(issued.stdout)")
        try cli.ok(["receive", cli.path("notes"), "--data-dir", cli.path("mainnet")])
        #expect(try cli.balance("mainnet").spendable == 250_000_000_000_000_000)

        let refused = try cli.run([
            "chain", "add", "--data-dir", cli.path("mainnet"), "--id", "1", "--vault", Self.vault,
            "--rpc", "http://127.0.0.1:9", "--native-symbol", "E T H",
        ])
        #expect(refused.status == 64 && refused.stderr.contains("printable"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("mainnet/chains.toml")))

        // An issuer's folder has no wallet, and names a development chain's coin all the same.
        try cli.ok([
            "chain", "add", "--data-dir", cli.path("issuer"), "--id", "31337", "--vault",
            Self.vault, "--rpc", "http://127.0.0.1:9", "--native-symbol", "DEV",
            "--native-decimals", "2",
        ])
        // Its endpoint does not answer: the collateral cannot be checked, and the issuer
        // is told so; --offline issues without it.
        let unchecked = try cli.run([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--chain-id", "31337", "--vault",
            Self.vault, "--to", me, "--amount", "1.50", "--out", cli.path("dev-notes"),
        ])
        #expect(
            unchecked.status == 74 && unchecked.stderr.contains("--offline"), "\(unchecked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("dev-notes")))
        let dev = try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--chain-id", "31337", "--vault",
            Self.vault, "--to", me, "--amount", "1.50", "--out", cli.path("dev-notes"), "--json",
            "--offline",
        ])
        #expect(dev.json["total"] as? String == "150")
        // A folder without a wallet yet takes the registry first: `init` then reads it
        // (DomainTests), and nobody but its owner reads it.
        let plain = try cli.ok([
            "chain", "add", "--data-dir", cli.path("plain"), "--id", "31337", "--vault",
            Self.vault, "--rpc", "http://127.0.0.1:9",
        ])
        #expect(plain.stderr.contains("the vault is not checked"), "\(plain.stderr)")
        let mode =
            try FileManager.default.attributesOfItem(atPath: cli.path("plain"))[
                .posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}
