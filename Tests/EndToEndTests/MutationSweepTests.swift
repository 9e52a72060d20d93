import Foundation
import Testing

/// Every file kind a wallet receives (notes from an issuer, a payment, a receipt, double-spend
/// evidence), mutated one bit or one truncation at a time and handed to the real CLI, each
/// time against a fresh copy of the receiving store: none may be accepted; each must exit 65
/// with `tender: error: rejected: …` and leave wallet.sqlite byte for byte as it was.
///
/// In CI a seeded sample of each file is swept; `Scripts/mutation-sweep.sh` sweeps every
/// mutation (`TENDER_SWEEP=full`) and collects the figures for Docs/MUTATION-SWEEP.md. No
/// flip is harmless by design: the format is strict deterministic CBOR and every field is
/// signed or checked, so there is no allowance for accepted mutations.
extension BinarySweeps {
    @Suite(.serialized) struct MutationSweepTests {
        /// Built once for the four kinds (about 25 CLI runs).
        static let world = Result { try SweepWorld() }

        func sweep(_ kind: String) throws {
            let world = try Self.world.get()
            let target = try #require(world.targets.first { $0.kind == kind })
            try MutationSweep.sweepAsAsked(
                target, scratch: world.cli.workDirectory.appendingPathComponent("sweep-\(kind)"))
        }

        @Test func notesFromAnIssuer() throws { try sweep("notes") }
        @Test func payment() throws { try sweep("payment") }
        @Test func receipt() throws { try sweep("receipt") }
        @Test func evidence() throws { try sweep("evidence") }

        /// The field map names the parts of a file as PROTOCOL §6 does.
        @Test func fieldNames() throws {
            let world = try Self.world.get()
            let payment = try #require(world.targets.first { $0.kind == "payment" })
            let fields = try #require(payment.fields as? FieldMap)
            #expect(fields.field(at: 0) == "envelope (tag 55799)")
            #expect(fields.field(at: 3) == "envelope (map head)")
            #expect(fields.field(at: payment.file.count - 1) == "body.signature (v)")
            #expect(fields.field(at: payment.file.count) == "(end of file)")
            let names = Set((0..<payment.file.count).map { fields.field(at: $0) })
            #expect(!names.contains("(unmapped)"))
            for name in [
                "body.memo", "body.bundle.notes[0].signature (r)",
                "body.bundle.transfers[1].outputs[0].amount", "body.coins[0]",
            ] {
                #expect(names.contains(name), "\(name) not in \(names.sorted())")
            }
        }
    }
}

/// Carol holds notes from an issuer, pays Alice, who pays Bob (a two-hop payment with a memo);
/// then Alice pays Carol the same change coin twice from a copy of her wallet. Each receiving
/// store is kept as it was just before its file arrived.
struct SweepWorld: Sendable {
    let cli: CLI
    let targets: [SweepTarget]

    init() throws {
        let cli = try CLI()
        self.cli = cli
        let issuer =
            try cli.ok([
                "issuer", "init", "--data-dir", cli.path("issuer"), "--scrypt-n", "1024", "--json",
            ]).json["issuer"] as! String
        let carol = try cli.initWallet("carol")
        let alice = try cli.initWallet("alice")
        let bob = try cli.initWallet("bob")
        for wallet in ["carol", "alice", "bob"] {
            try cli.ok(["trust", "add", issuer, "--data-dir", cli.path(wallet)])
        }
        func snapshot(_ wallet: String, as name: String) throws -> URL {
            let copy = cli.workDirectory.appendingPathComponent("pristine-\(name)")
            try FileManager.default.copyItem(
                at: cli.workDirectory.appendingPathComponent(wallet), to: copy)
            return copy
        }
        func receive(_ file: String, by wallet: String, receipt: String? = nil) throws {
            try cli.ok(
                ["receive", cli.path(file), "--data-dir", cli.path(wallet)]
                    + (receipt.map { ["--receipt-out", cli.path($0)] } ?? []))
        }
        func pay(
            _ wallet: String, to payee: String, _ amount: Int, memo: String, out: String
        )
            throws
        {
            try cli.ok([
                "pay", "--data-dir", cli.path(wallet), "--to", payee, "--amount", String(amount),
                "--memo", memo, "--out", cli.path(out),
            ])
        }

        // Notes from the issuer to Carol.
        let carolBeforeNotes = try snapshot("carol", as: "notes")
        try cli.ok([
            "issuer", "issue", "--data-dir", cli.path("issuer"), "--to", carol, "--amount", "100",
            "--count", "2", "--out", cli.path("notes.tender"),
        ])
        try receive("notes.tender", by: "carol")

        // Carol pays Alice 150 (both notes, change to Carol); Alice pays Bob 120 of it.
        try pay("carol", to: alice, 150, memo: "stock for the stall", out: "carol-alice.tender")
        try receive("carol-alice.tender", by: "alice", receipt: "carol-alice.receipt")
        try cli.ok(["receipt", cli.path("carol-alice.receipt"), "--data-dir", cli.path("carol")])
        let bobBeforePayment = try snapshot("bob", as: "payment")
        try pay("alice", to: bob, 120, memo: "Two teas & a cake ☕", out: "payment.tender")
        let alicePending = try snapshot("alice", as: "receipt")
        try receive("payment.tender", by: "bob", receipt: "receipt.tender")
        try cli.ok(["receipt", cli.path("receipt.tender"), "--data-dir", cli.path("alice")])

        // Alice's change (30) paid to Carol twice: from her wallet and from a copy of it.
        try FileManager.default.copyItem(
            at: cli.workDirectory.appendingPathComponent("alice"),
            to: cli.workDirectory.appendingPathComponent("alice-twin"))
        try pay("alice", to: carol, 10, memo: "first", out: "spend-1.tender")
        try pay("alice-twin", to: carol, 20, memo: "second", out: "spend-2.tender")
        try receive("spend-1.tender", by: "carol")
        let carolMetTheCoin = try snapshot("carol", as: "evidence")
        let refused = try cli.run([
            "receive", cli.path("spend-2.tender"), "--data-dir", cli.path("carol"),
        ])
        guard refused.status == 65, refused.stderr.contains("double spend") else {
            throw Failure("the second spend was not refused as a double spend: \(refused.stderr)")
        }
        let evidenceDirectory = cli.path("evidence")
        try FileManager.default.createDirectory(
            atPath: evidenceDirectory, withIntermediateDirectories: true)
        try cli.ok(["evidence", "--data-dir", cli.path("carol"), "--out", evidenceDirectory])

        let receiveCommand: @Sendable (String, String, String) -> [String] = {
            ["receive", $0, "--data-dir", $1, "--receipt-out", $2]
        }
        func target(
            _ kind: String, _ file: String, _ body: FieldMap.Shape, _ pristine: URL,
            _ arguments: @escaping @Sendable (String, String, String) -> [String]
        ) throws -> SweepTarget {
            let bytes = try cli.bytes(file)
            return SweepTarget(
                kind: kind, file: bytes, fields: FieldMap(bytes, body: body), pristine: pristine,
                environment: cli.environment, arguments: arguments)
        }
        targets = [
            try target("notes", "notes.tender", .payment, carolBeforeNotes, receiveCommand),
            try target("payment", "payment.tender", .payment, bobBeforePayment, receiveCommand),
            try target("receipt", "receipt.tender", .receipt, alicePending) { input, wallet, _ in
                ["receipt", input, "--data-dir", wallet]
            },
            try target("evidence", "evidence/evidence-1.tender", .evidence, carolMetTheCoin) {
                input, wallet, _ in ["evidence", "import", input, "--data-dir", wallet]
            },
        ]
    }
}
