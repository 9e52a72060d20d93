import Foundation
import Testing

/// Cashu tokens a Tender wallet gave, mutated one bit or one truncation at a time and handed
/// to the real `tender cashu receive FILE`, offline, each time against a fresh copy of the
/// payee's data directory. The memo and the mint URL are not signed (Docs/CASHU.md), so a
/// mutation may be accepted, but only if the wallet then holds exactly what the genuine token
/// gives (`CashuHoldings`); otherwise it is refused (65, or 66 for a mint whose keys the
/// wallet does not hold) with cashu.sqlite and wallet.sqlite byte for byte as they were.
///
/// As `MutationSweepTests`: a seeded sample in CI, every mutation with `TENDER_SWEEP=full`
/// (`Scripts/mutation-sweep.sh`).
extension BinarySweeps {
    @Suite(.serialized) struct CashuMutationSweepTests {
        /// A real mint, nutshell's wallet and two Tender wallets, built once (about 10 s).
        static let world = Result { try CashuSweepWorld() }

        func target(_ kind: String) throws -> SweepTarget {
            try #require(try Self.world.get().targets.first { $0.kind == kind })
        }

        func sweep(_ kind: String) throws {
            try MutationSweep.sweepAsAsked(
                try target(kind),
                scratch: try Self.world.get().cli.workDirectory.appendingPathComponent(
                    "sweep-\(kind)"))
        }

        @Test func plainTokenWithAMemo() throws { try sweep("cashu") }
        @Test func tokenLockedToThePayee() throws { try sweep("cashu-locked") }

        /// The tokens are what the sweep needs: each has two proofs or more, each proof its DLEQ
        /// proof (e, s, r), and a memo; the locked one's secrets lock to the payee's key.
        @Test func tokensCarryDLEQProofsMemosAndTheLock() throws {
            let world = try Self.world.get()
            for (kind, memo) in [
                ("cashu", CashuSweepWorld.memo), ("cashu-locked", CashuSweepWorld.lockedMemo),
            ] {
                let fields = try #require(try target(kind).fields as? CashuTokenFields)
                #expect(fields.bytes(of: "d") == Array(memo.utf8))
                #expect(
                    fields.fieldNames.contains("t[0].p[1].c"), "\(kind) has fewer than 2 proofs")
                for proof in 0..<2 {
                    for part in ["e", "s", "r"] {
                        #expect(fields.fieldNames.contains("t[0].p[\(proof)].d.\(part)"))
                    }
                    let secret = String(
                        decoding: fields.bytes(of: "t[0].p[\(proof)].s") ?? [], as: UTF8.self)
                    if kind == "cashu-locked" {
                        #expect(secret.hasPrefix("[\"P2PK\"") && secret.contains(world.payeeKey))
                    } else {
                        #expect(secret.count == 64, "a plain secret: 32 random bytes in hex")
                    }
                }
            }
        }

        /// The names a failure gives: the prefix, the CBOR's fields as NUT-00 names them, the
        /// newline after the token.
        @Test func fieldNames() throws {
            let token = try target("cashu")
            let fields = try #require(token.fields as? CashuTokenFields)
            #expect(!fields.fieldNames.contains("(unmapped)"))
            for name in [
                "token (map head)", "d (key)", "d", "m", "u", "t (array head)", "t[0].i",
                "t[0].p[0].a",
                "t[0].p[1].s", "t[0].p[1].c (head)", "t[0].p[1].d.r",
            ] {
                #expect(
                    fields.fieldNames.contains(name), "\(name) not in \(fields.fieldNames.sorted())"
                )
            }
            let size = token.file.count
            #expect(fields.field(of: .flip(offset: 5, bit: 0)) == "the prefix cashuB")
            #expect(fields.field(of: .flip(offset: 6, bit: 0)) == "token (map head)")
            #expect(
                fields.field(of: .flip(offset: 6, bit: 7)) == "token (map head) (no longer base64)")
            #expect(
                fields.field(of: .flip(offset: size - 1, bit: 0)) == "the newline after the token")
            #expect(fields.field(of: .truncate(length: size - 1)) == "the newline after the token")
            // The memo's third byte (k): a cut after ⌈8k/6⌉ characters loses it first.
            let memo = try #require(fields.range(of: "d"))
            let cut = 6 + (4 * (memo.lowerBound + 2) + 2) / 3
            #expect(fields.field(of: .truncate(length: cut)) == "d")
            #expect(fields.field(of: .flip(offset: cut + 1, bit: 0)).hasPrefix("d"))
        }

        /// The holdings tell tokens apart by their proofs, not by their memos: the genuine token
        /// taken twice reads the same, and so does it with another memo of the same length; the
        /// locked token reads otherwise, and an acceptance holding it is no harmless one.
        @Test func holdingsComparePaymentsAndProofsNotMemos() throws {
            let world = try Self.world.get()
            let plain = try target("cashu")
            let fields = try #require(plain.fields as? CashuTokenFields)
            var otherMemo = fields.cbor
            let memo = try #require(fields.range(of: "d"))
            otherMemo.replaceSubrange(memo.prefix(3), with: Array("Six".utf8))
            let runs: [(name: String, file: [UInt8], arguments: [String])] = [
                ("genuine", plain.file, []), ("again", plain.file, []),
                ("other-memo", CashuTokenFields.prefix + CashuTokenFields.encode(otherMemo), []),
                ("locked", try target("cashu-locked").file, ["--require-lock"]),
            ]
            var holdings: [String: String] = [:]
            for run in runs {
                let directory = world.cli.workDirectory.appendingPathComponent(
                    "holdings-\(run.name)")
                try FileManager.default.copyItem(at: world.pristine, to: directory)
                let input = directory.appendingPathComponent("token.cashu")
                try Data(run.file).write(to: input)
                try world.cli.ok(
                    ["cashu", "receive", input.path, "--data-dir", directory.path] + run.arguments)
                holdings[run.name] = try CashuHoldings.read(directory)
            }
            #expect(holdings["genuine"]?.contains("proofs: ") == true)
            #expect(holdings["again"] == holdings["genuine"])
            #expect(holdings["other-memo"] == holdings["genuine"])
            #expect(holdings["locked"] != holdings["genuine"])

            let acceptance = SweepOutcome(
                mutation: .flip(offset: 100, bit: 0), status: 0, signalled: false, stderr: "",
                changedFiles: ["cashu.sqlite"], wroteOutput: false, holdings: holdings["locked"])
            guard
                case .improper = acceptance.verdict(
                    under: .cashuToken, genuineHoldings: holdings["genuine"])
            else {
                Issue.record("an acceptance holding other proofs passed as harmless")
                return
            }
        }
    }
}
