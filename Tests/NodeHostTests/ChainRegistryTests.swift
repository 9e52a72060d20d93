import Foundation
import NodeHost
import NodeKit
import Secp256k1
import Settlement
import Tender
import TenderTestSupport
import Testing

/// The chain registry: entries checked as they are made, the TOML file read and written back
/// the same, and a node's wallets per domain (a domain not listed takes no payment).
@Suite struct ChainRegistryTests {
    let vault = try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3")
    let other = try! Address("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512")

    @Test func anEntryNeedsAnHTTPEndpointAtLeastOneConfirmationAndAPositiveRate() throws {
        let domain = Domain(chainID: 5, vault: vault)
        let refusals: [(() throws(NodeError) -> ChainEntry, String)] = [
            (
                { () throws(NodeError) in try ChainEntry(domain: domain, endpoints: []) },
                "at least one"
            ),
            (
                { () throws(NodeError) in try ChainEntry(domain: domain, endpoints: ["ws://x:1"]) },
                "ws://x:1"
            ),
            (
                { () throws(NodeError) in
                    try ChainEntry(domain: domain, endpoints: ["http://a b"])
                }, "http://a b"
            ),
            (
                { () throws(NodeError) in
                    try ChainEntry(domain: domain, endpoints: ["http://127.0.0.1:99999/"])
                }, "http://127.0.0.1:99999/"
            ),
            (
                { () throws(NodeError) in
                    try ChainEntry(domain: domain, endpoints: ["http://a"], confirmations: 0)
                }, "confirmations"
            ),
            (
                { () throws(NodeError) in
                    try ChainEntry(domain: domain, endpoints: ["http://a"], rateLimit: 0)
                }, "rate limit"
            ),
            // Numbers that would trap later (a wait of 10^300 s) or never settle.
            (
                { () throws(NodeError) in
                    try ChainEntry(domain: domain, endpoints: ["http://a"], rateLimit: 1e-300)
                }, "rate limit must be 0.1…100000"
            ),
            (
                { () throws(NodeError) in
                    try ChainEntry(domain: domain, endpoints: ["http://a"], rateLimit: .infinity)
                }, "rate limit"
            ),
            (
                { () throws(NodeError) in
                    try ChainEntry(domain: domain, endpoints: ["http://a"], rateLimit: .nan)
                }, "rate limit"
            ),
            (
                { () throws(NodeError) in
                    try ChainEntry(domain: domain, endpoints: ["http://a"], confirmations: .max)
                }, "confirmations must be at least 1 and at most 86400"
            ),
            (
                { () throws(NodeError) in
                    try ChainEntry(
                        domain: Domain(chainID: .max, vault: vault), endpoints: ["http://a"])
                }, "out of range"
            ),
        ]
        for (make, named) in refusals {
            do {
                _ = try make()
                Issue.record("accepted an entry that should name \(named)")
            } catch { #expect(error.description.contains(named), "\(error)") }
        }
    }

    @Test func addingTheSameDomainReplacesAndRemovingTakesAChainOrOneVault() throws {
        var registry = try ChainRegistry()
        let first = try ChainEntry(
            domain: Domain(chainID: 1, vault: vault), endpoints: ["http://a"])
        let added = registry.add(first)
        let replaced = registry.add(
            try ChainEntry(
                domain: Domain(chainID: 1, vault: vault), endpoints: ["https://b"],
                confirmations: 12))
        #expect(!added && replaced)
        #expect(registry.entries.count == 1 && registry.entries[0].confirmations == 12)
        registry.add(
            try ChainEntry(domain: Domain(chainID: 1, vault: other), endpoints: ["http://c"]))
        registry.add(
            try ChainEntry(domain: Domain(chainID: 2, vault: vault), endpoints: ["http://d"]))
        let removed = [
            registry.remove(chainID: 1, vault: other), registry.remove(chainID: 1),
            registry.remove(chainID: 1),
        ]
        #expect(removed == [1, 1, 0])
        #expect(registry.entries.map(\.domain.chainID) == [2])
        #expect(throws: NodeError.self) { try ChainRegistry([first, first]) }
    }

    @Test func theFileIsReadAndWrittenBackTheSame() throws {
        let registry = try ChainRegistry([
            try ChainEntry(
                domain: Domain(chainID: 31337, vault: vault),
                endpoints: ["http://127.0.0.1:8545", "https://rpc.example/key?a=\"b\""],
                confirmations: 3, rateLimit: 12.5),
            try ChainEntry(domain: Domain(chainID: 10, vault: other), endpoints: ["http://x"]),
            try ChainEntry(
                domain: Domain(chainID: 31338, vault: vault), endpoints: ["http://y"],
                dust: .redeem),
        ])
        let text = ChainRegistryFile.render(registry)
        #expect(text.contains("[[chain]]\nid = 31337\n"))
        #expect(text.components(separatedBy: "dust = \"redeem\"").count == 2)
        #expect(try ChainRegistryFile.parse(text, name: "chains.toml") == registry)
        #expect(try ChainRegistryFile.parse("", name: "chains.toml").entries.isEmpty)
    }

    @Test func aBrokenFileIsRefusedNamingWhatIsWrong() {
        let cases: [(String, String)] = [
            ("[[chain]\nid = 1", "line 1"),
            ("[[chain]]\nid = 1\nrpc = [\"http://a\"]", "vault"),
            (
                "[[chain]]\nid = 0\nvault = \"\(vault)\"\nrpc = [\"http://a\"]",
                "id must be positive"
            ),
            ("[[chain]]\nid = 1\nvault = \"0x12\"\nrpc = [\"http://a\"]", "vault"),
            ("[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = \"http://a\"", "rpc"),
            (
                "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]\nconfirmations = 0",
                "confirmations"
            ),
            (
                "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]\n"
                    + "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://b\"]",
                "listed twice"
            ),
            (
                "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]\nrate-limit = 1e-300",
                "rate limit"
            ),
            (
                "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]\nrate-limit = nan",
                "rate limit"
            ),
            (
                "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]\nconfirmations = 9223372036854775807",
                "confirmations"
            ),
            (
                "[[chain]]\nid = 9223372036854775807\nvault = \"\(vault)\"\nrpc = [\"http://a\"]",
                "out of range"
            ),
            (
                "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]\nnative-symbol = \"X\"\nnative-decimals = 9223372036854775807",
                "native-decimals"
            ),
            (
                "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]\ndust = \"never\"",
                "dust must be \"wait\" or \"redeem\", got \"never\""
            ),
            // A typo is not a default left in place.
            (
                "[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]\nconfirmation = 12",
                "chain 1: unknown key confirmation"
            ),
            (
                "chains = 1\n[[chain]]\nid = 1\nvault = \"\(vault)\"\nrpc = [\"http://a\"]",
                "unknown key chains"
            ),
        ]
        for (text, named) in cases {
            do {
                _ = try ChainRegistryFile.parse(text, name: "chains.toml")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.contains("chains.toml"), "\(error)")
                #expect(error.description.contains(named), "\(text): \(error)")
            }
        }
    }

    /// The node reads the registry for every answer it shows amounts in: as last read while
    /// the file stays as it was, read again once `chain add` or a hand edit changed it.
    @Test func theRegistryIsReadAgainOnceItsFileChanged() throws {
        let folder = try TemporaryDirectory("chain-registry")
        defer { folder.remove() }
        let host = NodeHost(dataDir: folder.path, environment: [:])
        _ = try Wallet.create(
            at: host.directory.database,
            address: Address(publicKey: PrivateKey.generate().publicKey),
            domain: Domain(chainID: 1, vault: vault))
        #expect(try host.chainRegistry().entries.isEmpty)
        var registry = try host.chainRegistry()
        registry.add(
            try ChainEntry(domain: Domain(chainID: 1, vault: vault), endpoints: ["http://a"]))
        try host.saveChainRegistry(registry)
        #expect(try host.chainRegistry().entries.map(\.endpoints) == [["http://a"]])
        // By hand, in place: the same inode, another size.
        let text = try String(contentsOfFile: host.directory.chains, encoding: .utf8)
        try text.replacingOccurrences(of: "http://a", with: "http://b.example")
            .write(toFile: host.directory.chains, atomically: false, encoding: .utf8)
        #expect(try host.chainRegistry().entries.map(\.endpoints) == [["http://b.example"]])
        try FileManager.default.removeItem(atPath: host.directory.chains)
        #expect(try host.chainRegistry().entries.isEmpty)
    }

    @Test func aDomainTakesPaymentsOnlyOnceListedAndItsWalletIsTheNodes() throws {
        let folder = try TemporaryDirectory("chain-registry")
        defer { folder.remove() }
        let host = NodeHost(dataDir: folder.path, environment: [:])
        let owner = Address(publicKey: PrivateKey.generate().publicKey)
        let home = try Wallet.create(
            at: host.directory.database, address: owner, domain: Domain(chainID: 1, vault: vault))
        let issuer = Address(publicKey: PrivateKey.generate().publicKey)
        try home.trust(issuer, now: 100)
        try home.setAcceptanceMode(.open)
        try home.setUnrequestedFloor(1_000, of: .zero)
        try home.setRefusesUnlistedAssets(true)
        try home.close()

        let elsewhere = Domain(chainID: 2, vault: other)
        do {
            _ = try host.openWallet(for: elsewhere)
            Issue.record("a wallet for an unlisted domain")
        } catch {
            #expect(error.code == "wrong-domain" && error.resolvedBy == .addChain(elsewhere))
        }
        #expect(try host.openWallets().all.count == 1)

        var registry = try host.chainRegistry()
        registry.add(try ChainEntry(domain: elsewhere, endpoints: ["http://127.0.0.1:1"]))
        try host.saveChainRegistry(registry)
        #expect(try host.chainRegistry() == registry)
        let second = try host.openWallet(for: elsewhere)
        #expect(second.address == owner && second.domain == elsewhere)
        #expect(try second.trustedIssuers() == [issuer])
        #expect(try second.acceptanceMode() == .open)
        #expect(try second.unrequestedFloors() == [.zero: 1_000])
        #expect(try second.refusesUnlistedAssets())
        #expect(try host.openWallets().all.map(\.domain) == [home.domain, elsewhere])
        #expect(try host.openWallet(for: home.domain).domain == home.domain)
    }
}
