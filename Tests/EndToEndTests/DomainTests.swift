import Foundation
import Testing

/// A node set up for a vault an issuer deployed, holding notes of more than one vault,
/// through the real CLI (Docs/PROTOCOL.md §11): the home domain is chosen, not defaulted, and
/// a payment is made in the vault the payee names, or the only one that covers it.
@Suite struct DomainTests {
    /// Not the development chain's default vault: as an issuer's deployment would be.
    static let deployed = "0x30c2000000000000000000000000000000000001"
    static let other = "0x40d3000000000000000000000000000000000002"
    /// A port nothing listens on: `chain add` warns, and writes the entry.
    static let deadEndpoint = "http://127.0.0.1:9"

    func expect(
        _ result: CLI.Result, _ status: Int32, _ texts: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        for text in texts {
            #expect(
                (result.stderr + result.stdout).contains(text),
                "expected '\(text)' in: \(result.stderr)\(result.stdout)",
                sourceLocation: sourceLocation)
        }
    }

    /// An issuer, Alice holding 2 × 1000 of the deployed vault (her home is the default),
    /// and Bob whose home is the deployed vault, both trusting the issuer.
    func world() throws -> (cli: CLI, alice: String, bob: String) {
        let cli = try CLI()
        let issuer =
            try cli.ok([
                "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024", "--json",
            ]).json["issuer"] as! String
        let alice = try cli.initWallet("alice")
        try cli.ok([
            "chain", "add", "--data-dir", cli.path("alice"), "--id", "31337", "--vault",
            Self.deployed, "--rpc", Self.deadEndpoint,
        ])
        // Bob lists the vault first: `init` takes it as his home.
        try cli.ok([
            "chain", "add", "--data-dir", cli.path("bob"), "--id", "31337", "--vault",
            Self.deployed, "--rpc", Self.deadEndpoint,
        ])
        let bob = try cli.initWallet("bob")
        for wallet in ["alice", "bob"] {
            try cli.ok(["trust", "add", issuer, "--data-dir", cli.path(wallet)])
        }
        try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", alice, "--amount", "1000",
            "--count", "2", "--vault", Self.deployed, "--out", cli.path("notes"),
        ])
        try cli.ok(["receive", cli.path("notes"), "--data-dir", cli.path("alice")])
        return (cli, alice, bob)
    }

    @Test func initTakesTheVaultChainsTomlListsAndSaysADefaultIsTheDevelopmentChains() throws {
        let (cli, _, _) = try world()
        let listed = try cli.ok(["chain", "list", "--json", "--data-dir", cli.path("bob")]).json
        #expect((listed["home"] as? [String: Any])?["vault"] as? String == Self.deployed)
        // The wallet and its registry are their owner's only, as its key is.
        for file in ["wallet.sqlite", "chains.toml", "wallet-key.json"] {
            let mode =
                try FileManager.default.attributesOfItem(atPath: cli.path("bob/\(file)"))[
                    .posixPermissions] as? Int
            #expect(mode == 0o600, "\(file): \(String(mode ?? 0, radix: 8))")
        }
        let plain = try cli.ok(["init", "--data-dir", cli.path("plain"), "--scrypt-n", "1024"])
        #expect(plain.stdout.contains("the development chain's first vault"), "\(plain.stdout)")
        let chosen = try cli.ok([
            "init", "--data-dir", cli.path("chosen"), "--scrypt-n", "1024", "--vault", Self.other,
        ])
        #expect(!chosen.stdout.contains("development chain"), "\(chosen.stdout)")
        #expect(chosen.stdout.contains("Home: chain 31337, vault \(Self.other)"))

        // Two vaults listed and none named: init cannot guess, and writes no wallet.
        for vault in [Self.deployed, Self.other] {
            try cli.ok([
                "chain", "add", "--data-dir", cli.path("two"), "--id", "31337", "--vault", vault,
                "--rpc", Self.deadEndpoint,
            ])
        }
        let ambiguous = try cli.run(["init", "--data-dir", cli.path("two"), "--scrypt-n", "1024"])
        expect(ambiguous, 64, "chains.toml lists 2 vaults", "give --vault")
        #expect(!FileManager.default.fileExists(atPath: cli.path("two/wallet.sqlite")))
        let picked = try cli.ok([
            "init", "--data-dir", cli.path("two"), "--scrypt-n", "1024", "--vault", Self.other,
            "--json",
        ]).json
        #expect(picked["vault"] as? String == Self.other)
    }

    @Test func aWalletPaysFromTheOnlyVaultThatCoversTheAmount() throws {
        let (cli, _, bob) = try world()
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "500", "--out",
            cli.path("paid"),
        ])
        let received = try cli.ok(["receive", cli.path("paid"), "--data-dir", cli.path("bob")])
        #expect(received.stdout.contains("Received 500"), "\(received.stdout)")
        let listed = try cli.ok(["payments", "list", "--data-dir", cli.path("alice"), "--json"])
        let payments = listed.json["payments"] as? [[String: Any]] ?? []
        #expect(payments.map { $0["vault"] as? String } == [Self.deployed])
        let history = try cli.ok(["history", "--data-dir", cli.path("alice")]).stdout
        #expect(history.contains("out  500"), "\(history)")
        #expect(history.contains("vault \(Self.deployed)"), "\(history)")

        // Too much for any vault: the refusal lists what is held elsewhere.
        let tooMuch = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "5000", "--out",
            cli.path("too-much"),
        ])
        expect(
            tooMuch, 65, "insufficient funds: need 5000",
            "held in other vaults: 1500 base units (native coin) on chain 31337, vault \(Self.deployed)",
            "--chain-id and --vault")
        // A vault named where nothing is held: the same, and nothing is written.
        let named = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--to", bob, "--amount", "1", "--vault",
            Self.other, "--out", cli.path("named"),
        ])
        expect(named, 65, "insufficient funds", "held in other vaults: 1500")
        #expect(!FileManager.default.fileExists(atPath: cli.path("named")))
    }

    @Test func aRequestIsPaidInTheVaultItNamesOrRefusedWithWhatIsHeldElsewhere() throws {
        let (cli, _, _) = try world()
        let request =
            try cli.ok(["request", "--data-dir", cli.path("bob"), "--amount", "300", "--json"])
            .json["uri"] as! String
        #expect(request.contains("vault=\(Self.deployed)"))
        try cli.ok([
            "pay", "--data-dir", cli.path("alice"), "--request", request, "--out",
            cli.path("paid"),
        ])
        try cli.ok(["receive", cli.path("paid"), "--data-dir", cli.path("bob")])
        let exported = try cli.ok([
            "payments", "export", String(request.split(separator: "id=")[1].prefix(64)), "--out",
            cli.path("again"), "--data-dir", cli.path("alice"),
        ])
        #expect(exported.stdout.contains("written"))
        #expect(try cli.bytes("again") == cli.bytes("paid"))
        // The request names the vault: it cannot be overridden.
        let overridden = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--request", request, "--vault", Self.other,
            "--out", cli.path("overridden"),
        ])
        expect(overridden, 64, "--vault comes from the payee's code")

        // Carol's home is the default vault: Alice holds nothing there.
        try cli.initWallet("carol")
        let carols =
            try cli.ok(["request", "--data-dir", cli.path("carol"), "--amount", "300", "--json"])
            .json["uri"] as! String
        let refused = try cli.run([
            "pay", "--data-dir", cli.path("alice"), "--request", carols, "--out",
            cli.path("refused"),
        ])
        expect(
            refused, 65, "insufficient funds: need 300",
            "the payee asks to be paid in chain 31337, vault 0x5FbDB2315678afecb367f032d93F642f64180aa3",
            "which it did not ask for: 1700 base units (native coin) on chain 31337, vault \(Self.deployed)"
        )
        #expect(!FileManager.default.fileExists(atPath: cli.path("refused")))
    }

    /// A part of the domain not given comes from the wallet's home, not the development
    /// defaults: `--vault V` on a wallet of chain 8453 signs for V on 8453.
    @Test func aVaultGivenAloneTakesTheHomeChain() throws {
        let cli = try CLI()
        try cli.ok([
            "init", "--data-dir", cli.path("w"), "--scrypt-n", "1024", "--chain-id", "8453",
            "--vault", Self.other,
        ])
        try cli.ok(["issuer", "init", "--data-dir", cli.path("w"), "--scrypt-n", "1024"])
        try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("w"), "--vault", Self.deployed, "--to",
            Self.other, "--amount", "5", "--out", cli.path("notes"),
        ])
        let inspected = try cli.ok(["inspect", cli.path("notes"), "--json"]).stdout
        #expect(inspected.contains("\"chainId\" : \"8453\""), "\(inspected)")
        #expect(inspected.contains("\"verifyingContract\" : \"\(Self.deployed)\""), "\(inspected)")
    }

    /// Scanning a request says what this wallet can spend where the payee asks to be paid;
    /// notes of an issuer not trusted are refused naming the command that trusts it.
    @Test func aScanSaysWhatThisWalletHoldsWhereThePayeeAsksAndAnUntrustedIssuerIsNamed()
        throws
    {
        let (cli, _, _) = try world()
        for (payee, said) in [
            ("bob", "This wallet can spend 2000 base units (native coin) there."),
            ("carol", "This wallet holds nothing spendable in that vault"),
        ] {
            if payee == "carol" { try cli.initWallet("carol") }
            try cli.ok([
                "request", "--data-dir", cli.path(payee), "--amount", "300", "--qr", "png",
                "--out", cli.path("\(payee).png"),
            ])
            let scanned = try cli.ok([
                "scan", "--data-dir", cli.path("alice"), "--image", cli.path("\(payee).png"),
            ]).stdout
            #expect(scanned.contains(said), "\(scanned)")
            // The code's text stays the last line (scripts read it there).
            #expect(scanned.split(separator: "\n").last?.hasPrefix("tender:") == true)
        }
        let issuer = try cli.ok(["issuer", "address", "--data-dir", cli.path("issuer")]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let stranger = try cli.initWallet("stranger")
        try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", stranger, "--amount",
            "10", "--offline", "--out", cli.path("stranger-notes"),
        ])
        let refused = try cli.run([
            "receive", cli.path("stranger-notes"), "--data-dir", cli.path("stranger"),
        ])
        expect(refused, 65, "is not trusted by this node", "`tender trust add \(issuer)`")
    }
}
