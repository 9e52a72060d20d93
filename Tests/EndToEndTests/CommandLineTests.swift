import Foundation
import Testing

/// The command line's own words: one error form, the usage of the command meant, a mistyped
/// command named with its likely meaning, help of no command refused, the version.
@Suite struct CommandLineTests {
    let cli: CLI

    init() throws { cli = try CLI() }

    @Test func theVersionIsSaid() throws {
        let result = try cli.ok(["--version"])
        #expect(result.stdout.hasPrefix("tender ") && result.stdout.contains("."))
    }

    @Test(arguments: [
        (
            ["pai"], "'pai' is not a command of 'tender' (did you mean 'pay'?)",
            "Usage: tender <subcommand>"
        ),
        (
            ["chain", "ad"], "'ad' is not a command of 'tender chain' (did you mean 'add'?)",
            "Usage: tender chain <subcommand>"
        ),
        (["issuer", "isue"], "(did you mean 'issue'?)", "Usage: tender issuer <subcommand>"),
        (["balanse"], "(did you mean 'balance'?)", "See 'tender --help'"),
        (["frobnicate"], "'frobnicate' is not a command of 'tender'", "Usage: tender <subcommand>"),
        (
            ["help", "nonexist"], "no help for 'nonexist': 'tender' has no such command",
            "Usage: tender"
        ),
        (
            ["help", "chain", "ad"],
            "no help for 'ad': 'tender chain' has no such command (did you mean 'add'?)",
            "Usage: tender chain"
        ),
    ])
    func aMistypedCommandIsNamedWithWhatItProbablyMeant(
        arguments: [String], message: String, usage: String
    ) throws {
        let result = try cli.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("tender: error: "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.contains(usage), "\(result.stderr)")
        #expect(!result.stderr.contains("Error: "), "one error form: \(result.stderr)")
        #expect(!result.stderr.contains("frobnicate'?"))
    }

    /// A mistake in a subcommand's options shows that subcommand's usage, in the same form.
    @Test func aSubcommandsMistakeShowsItsOwnUsage() throws {
        let missing = try cli.run(["chain", "add"])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasPrefix("tender: error: Missing expected argument '--id <id>'"))
        #expect(missing.stderr.contains("Usage: tender chain add"))
        let invalid = try cli.run(["sync", "--interval", "0", "--data-dir", cli.path("none")])
        #expect(invalid.status == 64)
        #expect(invalid.stderr.hasPrefix("tender: error: --interval must be"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("Usage: tender sync"), "\(invalid.stderr)")
        #expect(!invalid.stderr.contains("Usage: tender <subcommand>"))
    }

    /// With --json an error is one JSON object on standard error: the stable code, the
    /// reason, the exit status; standard output stays empty.
    @Test func withJSONAnErrorIsJSON() throws {
        let cases: [([String], Int32, String, String)] = [
            (
                ["balance", "--data-dir", cli.path("none"), "--json"], 66, "not-found",
                "no wallet at"
            ),
            (["chain", "add", "--json"], 64, "usage", "Missing expected argument '--id <id>'"),
            (["balanse", "--json"], 64, "usage", "(did you mean 'balance'?)"),
            (
                ["sync", "--interval", "0", "--json", "--data-dir", cli.path("none")], 64, "usage",
                "--interval must be"
            ),
        ]
        for (arguments, status, code, reason) in cases {
            let result = try cli.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any],
                "\(result.stderr)")
            #expect(object["error"] as? String == code)
            #expect((object["reason"] as? String)?.contains(reason) == true, "\(object)")
            #expect(object["exitStatus"] as? Int == Int(status))
        }
    }

    /// The commands a newcomer starts with show examples in their help.
    @Test func theFirstCommandsHelpShowsExamples() throws {
        for command in [["init"], ["pay"], ["receive"], ["node"], ["sync"], ["chain", "add"]] {
            let help = try cli.ok(command + ["--help"])
            #expect(help.stdout.contains("Examples:\n  tender"), "\(command)")
        }
    }

    /// Help is still help: a command's, a group's run alone, and through `help`.
    @Test func helpExitsZero() throws {
        for arguments in [["help", "chain", "add"], ["chain"], ["pay", "--help"], ["help"]] {
            let result = try cli.ok(arguments)
            #expect(result.stdout.contains("OVERVIEW:") || result.stdout.contains("USAGE:"))
        }
    }
}

/// `chain remove` of a chain with several vaults' entries names the one to remove.
@Suite struct ChainRemoveTests {
    @Test func aChainOfSeveralVaultsNeedsTheVaultNamed() throws {
        let cli = try CLI()
        let vaults = [
            "0x5FbDB2315678afecb367f032d93F642f64180aa3",
            "0x30c2Ae6d1bc8D5e1A3e1B0c8d5a2e7f4B9c0d1e2",
        ]
        // The chain's coin is named once, with the first vault: the second takes it.
        for (index, vault) in vaults.enumerated() {
            try cli.ok(
                [
                    "chain", "add", "--data-dir", cli.path("stall"), "--id", "31337", "--vault",
                    vault, "--rpc", "http://127.0.0.1:9", "--no-check",
                ] + (index == 0 ? ["--native-symbol", "ETH"] : []))
        }
        let coins = { () throws -> [String] in
            let list = try cli.ok(["chain", "list", "--data-dir", cli.path("stall"), "--json"])
            return (list.json["chains"] as? [[String: Any]] ?? []).map {
                ($0["nativeCoin"] as? [String: Any])?["symbol"] as? String ?? "none"
            }
        }
        #expect(try coins() == ["ETH", "ETH"])
        let listed = { () throws -> [String] in
            let list = try cli.ok(["chain", "list", "--data-dir", cli.path("stall"), "--json"])
            return (list.json["chains"] as? [[String: Any]] ?? []).compactMap {
                $0["vault"] as? String
            }
        }
        let refused = try cli.run([
            "chain", "remove", "--data-dir", cli.path("stall"), "--id", "31337",
        ])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "chain 31337 has entries of 2 vaults (\(vaults[0]), \(vaults[1]))"))
        #expect(refused.stderr.contains("--vault") && refused.stderr.contains("--all-vaults"))
        #expect(try listed() == vaults)

        let unknown = try cli.run([
            "chain", "remove", "--data-dir", cli.path("stall"), "--id", "31337", "--vault",
            "0x000000000000000000000000000000000000dEaD",
        ])
        #expect(
            unknown.status == 66
                && unknown.stderr.contains(
                    "vault 0x000000000000000000000000000000000000dEaD of chain 31337 is not in the chain registry"
                ), "\(unknown.stderr)")

        try cli.ok([
            "chain", "remove", "--data-dir", cli.path("stall"), "--id", "31337", "--vault",
            vaults[1],
        ])
        #expect(try listed() == [vaults[0]])
        #expect(try coins() == ["ETH"])
        // One entry left: --id alone names it.
        try cli.ok(["chain", "remove", "--data-dir", cli.path("stall"), "--id", "31337"])
        #expect(try listed().isEmpty)
    }

    /// An issuer's folder has no wallet and needs none: chain list does not send it to init.
    @Test func anIssuersFolderIsNotToldToInit() throws {
        let cli = try CLI()
        try cli.ok(["issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024"])
        let listed = try cli.ok(["chain", "list", "--data-dir", cli.path("issuer")])
        #expect(listed.stdout.contains("Home: none (an issuer's folder"), "\(listed.stdout)")
        #expect(!listed.stdout.contains("tender init"))
    }
}
