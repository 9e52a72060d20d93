import Dispatch
import Foundation
import TenderTestSupport
import Testing

/// One change to a file: a single bit flipped, or the file cut short.
enum Mutation: Hashable, Sendable, CustomStringConvertible {
    case flip(offset: Int, bit: Int)
    case truncate(length: Int)

    func apply(to bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .flip(let offset, let bit):
            var copy = bytes
            copy[offset] ^= 1 << UInt8(bit)
            return copy
        case .truncate(let length): return Array(bytes.prefix(length))
        }
    }

    var description: String {
        switch self {
        case .flip(let offset, let bit): "byte \(offset) bit \(bit)"
        case .truncate(let length): "truncated to \(length) bytes"
        }
    }

    /// The byte the mutation is about: the flipped one, or the first one cut off.
    var offset: Int {
        switch self {
        case .flip(let offset, _): offset
        case .truncate(let length): length
        }
    }
}

/// How much to sweep, read from the environment:
/// - `TENDER_SWEEP` unset: a seeded sample (`TENDER_SWEEP_SAMPLE` mutations per file, default
///   150, seed `TENDER_SWEEP_SEED`); `full`: bits 0 and 7 of every byte and every truncation;
///   `all-bits`: all 8 bits of every byte and every truncation.
/// - `TENDER_SWEEP_JOBS`: runs at a time (default 3).
/// - `TENDER_SWEEP_REPORT`: a directory that receives each file kind's figures.
struct SweepPlan: Sendable {
    enum Scope: Sendable {
        case sample(count: Int, seed: UInt64)
        case full(bits: [Int])
    }

    let scope: Scope
    let jobs: Int
    let reportDirectory: URL?

    static let defaultSeed: UInt64 = 0x7E4D_E250_2026_1124

    static func fromEnvironment() -> SweepPlan {
        let environment = ProcessInfo.processInfo.environment
        let scope: Scope =
            switch environment["TENDER_SWEEP"] {
            case "full": .full(bits: [0, 7])
            case "all-bits": .full(bits: Array(0..<8))
            default:
                .sample(
                    count: environment["TENDER_SWEEP_SAMPLE"].flatMap { Int($0) } ?? 150,
                    seed: environment["TENDER_SWEEP_SEED"].flatMap { parseSeed($0) }
                        ?? defaultSeed)
            }
        return SweepPlan(
            scope: scope,
            jobs: max(1, environment["TENDER_SWEEP_JOBS"].flatMap { Int($0) } ?? 3),
            reportDirectory: environment["TENDER_SWEEP_REPORT"].map {
                URL(fileURLWithPath: $0)
            })
    }

    private static func parseSeed(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    var label: String {
        switch scope {
        case .sample(let count, let seed):
            "sample of \(count), seed 0x\(String(seed, radix: 16))"
        case .full(let bits) where bits.count == 8: "full, all 8 bits"
        case .full(let bits): "full, bits \(bits.map(String.init).joined(separator: " and "))"
        }
    }

    /// The mutations of a file of `size` bytes. A sample always holds both ends of the file
    /// (bits 0 and 7 of the first and last byte) and some truncations; the rest is drawn
    /// from every bit of every byte and every truncation.
    func mutations(ofFileOfSize size: Int) -> [Mutation] {
        switch scope {
        case .full(let bits):
            return (0..<size).flatMap { offset in
                bits.map { Mutation.flip(offset: offset, bit: $0) }
            } + (0..<size).map { Mutation.truncate(length: $0) }
        case .sample(let count, let seed):
            var random = SeededGenerator(seed: seed ^ UInt64(size))
            var chosen: [Mutation] = [
                .flip(offset: 0, bit: 0), .flip(offset: 0, bit: 7),
                .flip(offset: size - 1, bit: 0), .flip(offset: size - 1, bit: 7),
                .truncate(length: 0), .truncate(length: 1), .truncate(length: 3),
                .truncate(length: size / 2), .truncate(length: size - 1),
            ]
            var seen = Set(chosen)
            let target = min(count, size * 9)
            let truncations = target / 10
            while chosen.count < target {
                let mutation: Mutation =
                    chosen.count < target - truncations
                    ? .flip(
                        offset: Int.random(in: 0..<size, using: &random),
                        bit: Int.random(in: 0..<8, using: &random))
                    : .truncate(length: Int.random(in: 0..<size, using: &random))
                if seen.insert(mutation).inserted { chosen.append(mutation) }
            }
            return chosen
        }
    }
}

/// Names the part of a file a mutation is about (for reports).
protocol FieldNaming: Sendable {
    func field(of mutation: Mutation) -> String
}

/// What the runs of a file kind must do.
struct SweepRule: Sendable {
    /// An exit status a refusal may have, what it means, and how its reason is read from
    /// stderr (nil when stderr gives none).
    struct Refusal: Sendable {
        let status: Int32
        let meaning: String
        let reason: @Sendable (_ stderr: String) -> String?
    }

    let refusals: [Refusal]
    /// What the reasons in the histogram are (its column heading).
    var reasonHeading = "reason (after `rejected: `; ids and numbers blanked)"
    /// The files of the data directory a refusal must leave byte for byte as they were.
    let storeFiles: [String]
    /// What the data directory holds after an acceptance, as text, leaving out what the file
    /// does not sign. An accepted mutation is harmless when it reads as the genuine file's.
    /// nil: no acceptance is harmless.
    let holdings: (@Sendable (_ dataDirectory: URL) throws -> String)?

    /// Tender's own files: every field is signed or checked, so every mutation is refused
    /// (exit 65, `rejected: `) and wallet.sqlite is left as it was.
    static let tenderFile = SweepRule(
        refusals: [Refusal(status: 65, meaning: "rejected") { MutationSweep.reason($0) }],
        storeFiles: ["wallet.sqlite", "wallet.sqlite-wal"], holdings: nil)

    var statusesText: String { refusals.map { String($0.status) }.joined(separator: " or ") }
}

/// A file kind and the store that receives it through the real CLI.
struct SweepTarget: Sendable {
    /// What the file is: "notes", "payment", "receipt", "evidence", "cashu", "cashu-locked".
    let kind: String
    /// The genuine file.
    let file: [UInt8]
    /// Names the bytes of the file (for reports).
    let fields: any FieldNaming
    /// The receiving data directory before the file arrives; each run gets a fresh copy.
    let pristine: URL
    let environment: [String: String]
    var rule: SweepRule = .tenderFile
    /// The command line, given the input file, the data directory and an output path the
    /// command may write only when it accepts (a receipt).
    let arguments:
        @Sendable (_ input: String, _ dataDirectory: String, _ output: String) -> [String]
}

/// What one run did.
struct SweepOutcome: Sendable {
    let mutation: Mutation
    let status: Int32
    let signalled: Bool
    let stderr: String
    /// The store files (of the rule) that are not as they were.
    let changedFiles: [String]
    let wroteOutput: Bool
    /// What the data directory holds, after an acceptance under a rule that reads it.
    var holdings: String? = nil

    enum Verdict: Sendable {
        case refused(status: Int32, reason: String)
        /// Accepted, holding exactly what the genuine file gives.
        case harmless
        /// Why the run is neither a proper refusal nor harmless.
        case improper([String])
    }

    func verdict(under rule: SweepRule, genuineHoldings: String?) -> Verdict {
        if signalled { return .improper(["killed by signal \(status)"]) }
        if status == 0 {
            guard rule.holdings != nil else { return .improper(["ACCEPTED (exit 0)"]) }
            if let holdings, holdings == genuineHoldings { return .harmless }
            return .improper([
                "ACCEPTED (exit 0) holding other than the genuine file gives: "
                    + Self.difference(holdings ?? "(nothing read)", genuineHoldings ?? "")
            ])
        }
        var problems: [String] = []
        let refusal = rule.refusals.first { $0.status == status }
        let reason = refusal?.reason(stderr)
        if refusal == nil { problems.append("exit \(status), not \(rule.statusesText)") }
        if refusal != nil && reason == nil {
            problems.append("no 'tender: error: …' message with a reason for exit \(status)")
        }
        if !changedFiles.isEmpty {
            problems.append("\(changedFiles.joined(separator: ", ")) changed")
        }
        if wroteOutput { problems.append("wrote its output file") }
        if let reason, problems.isEmpty { return .refused(status: status, reason: reason) }
        return .improper(problems)
    }

    /// The lines one holding has that the other has not, both ways, shortened.
    private static func difference(_ held: String, _ genuine: String) -> String {
        let heldLines = Set(held.split(separator: "\n"))
        let genuineLines = Set(genuine.split(separator: "\n"))
        let extra = heldLines.subtracting(genuineLines).sorted().prefix(2)
        let missing = genuineLines.subtracting(heldLines).sorted().prefix(2)
        return "holds \(extra.map { String($0.prefix(160)) }) instead of "
            + "\(missing.map { String($0.prefix(160)) })"
    }
}

/// A run that was neither a proper refusal nor harmless, with the field its byte falls in.
struct SweepFailure: Sendable {
    let outcome: SweepOutcome
    let field: String
    let problems: [String]
}

/// One file kind's figures.
struct SweepReport: Sendable {
    let kind: String
    let fileSize: Int
    let plan: String
    let tried: Int
    let refused: Int
    let harmless: Int
    let seconds: Double
    /// Refusals by exit status and reason, most frequent first.
    let histogram: [(status: Int32, reason: String, count: Int)]
    let rule: SweepRule
    /// Where the outcomes other than the first refusal of the rule fell (accepted as harmless;
    /// refused with exit 66), each by the field mutated, most frequent first.
    let fieldsByOutcome: [(outcome: String, fields: [(field: String, count: Int)])]
    let failures: [SweepFailure]

    var summary: String {
        "\(kind): \(fileSize) bytes, \(plan): \(tried) tried, \(refused) refused, "
            + "\(harmless) accepted as harmless, \(failures.count) not refused properly, "
            + "\(String(format: "%.1f", seconds)) s"
    }

    /// A row of the figures table in Docs/MUTATION-SWEEP.md.
    var tableRow: String {
        "| \(kind) | \(fileSize) | \(tried) | \(refused) | \(harmless) | \(failures.count) | "
            + "\(String(format: "%.0f", seconds)) s |"
    }

    var histogramMarkdown: String {
        var text = "### \(kind) (\(fileSize) bytes, \(tried) mutations, \(plan))\n\n"
        let reasonHeading = rule.reasonHeading
        // The exit status only where the rule allows more than one.
        let showsStatus = rule.refusals.count > 1
        text +=
            showsStatus
            ? "| refused | exit | \(reasonHeading) |\n|---:|---:|---|\n"
            : "| refused | \(reasonHeading) |\n|---:|---|\n"
        for (status, reason, count) in histogram {
            let quoted = "`\(reason.replacingOccurrences(of: "|", with: "\\|"))`"
            text +=
                showsStatus
                ? "| \(count) | \(status) | \(quoted) |\n" : "| \(count) | \(quoted) |\n"
        }
        for (outcome, fields) in fieldsByOutcome {
            text += "\n\(outcome) (\(fields.map(\.count).reduce(0, +))), by the field mutated: "
            text += fields.map { "`\($0.field)` \($0.count)" }.joined(separator: ", ") + ".\n"
        }
        for failure in failures {
            text += "\nNOT REFUSED PROPERLY: \(failure.outcome.mutation) (\(failure.field)): "
            text += failure.problems.joined(separator: ", ")
        }
        return text + "\n"
    }

    /// Records the runs not refused properly as issues of the running test (the first 20).
    func recordFailures() {
        #expect(failures.isEmpty, "\(summary)")
        for failure in failures.prefix(20) {
            Issue.record(
                """
                \(kind): \(failure.outcome.mutation) in \(failure.field): \
                \(failure.problems.joined(separator: ", ")); stderr: \(failure.outcome.stderr.prefix(300))
                """)
        }
    }

    /// Writes the figures into `directory` (`KIND.row`, `KIND.md`) for the sweep script.
    func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try (tableRow + "\n").write(
            to: directory.appendingPathComponent("\(kind).row"), atomically: true,
            encoding: .utf8)
        try histogramMarkdown.write(
            to: directory.appendingPathComponent("\(kind).md"), atomically: true, encoding: .utf8)
    }
}

enum MutationSweep {
    static func storeBytes(_ directory: URL, _ files: [String]) -> [Data?] {
        files.map { try? Data(contentsOf: directory.appendingPathComponent($0)) }
    }

    /// Runs the target's command on `bytes` against a fresh copy of its pristine store in
    /// `scratch` (emptied first).
    static func attempt(
        _ target: SweepTarget, _ bytes: [UInt8], mutation: Mutation, scratch: URL,
        pristineStore: [Data?]
    ) throws -> SweepOutcome {
        let files = FileManager.default
        try? files.removeItem(at: scratch)
        try files.createDirectory(at: scratch, withIntermediateDirectories: true)
        let wallet = scratch.appendingPathComponent("wallet")
        try files.copyItem(at: target.pristine, to: wallet)
        let input = scratch.appendingPathComponent("input.tender")
        try Data(bytes).write(to: input)
        let output = scratch.appendingPathComponent("output.tender")
        let result = try CLI.launch(
            CLI.binary, target.arguments(input.path, wallet.path, output.path),
            environment: target.environment, directory: scratch)
        let storeFiles = target.rule.storeFiles
        let store = storeBytes(wallet, storeFiles)
        var outcome = SweepOutcome(
            mutation: mutation, status: result.status, signalled: result.signalled,
            stderr: result.stderr,
            changedFiles: storeFiles.indices.filter { store[$0] != pristineStore[$0] }.map {
                storeFiles[$0]
            }, wroteOutput: files.fileExists(atPath: output.path))
        if result.status == 0, !result.signalled, let holdings = target.rule.holdings {
            do { outcome.holdings = try holdings(wallet) } catch {
                outcome.holdings = "(the store cannot be read: \(error))"
            }
        }
        return outcome
    }

    /// Sweeps `target` as the environment asks (`SweepPlan.fromEnvironment`), prints its
    /// summary, writes its figures when asked, and records every run not refused properly as
    /// an issue of the running test.
    @discardableResult
    static func sweepAsAsked(_ target: SweepTarget, scratch: URL) throws -> SweepReport {
        let plan = SweepPlan.fromEnvironment()
        let report = try sweep(target, plan: plan, scratch: scratch)
        print("mutation sweep: \(report.summary)")
        if let directory = plan.reportDirectory { try report.write(to: directory) }
        #expect(report.tried == plan.mutations(ofFileOfSize: target.file.count).count)
        report.recordFailures()
        return report
    }

    /// Runs the genuine file once (it must be accepted and change the store: otherwise the
    /// sweep proves nothing), then every mutation of `plan`, `plan.jobs` at a time.
    static func sweep(_ target: SweepTarget, plan: SweepPlan, scratch: URL) throws -> SweepReport {
        let pristineStore = storeBytes(target.pristine, target.rule.storeFiles)
        let genuine = try attempt(
            target, target.file, mutation: .truncate(length: target.file.count),
            scratch: scratch.appendingPathComponent("genuine"), pristineStore: pristineStore)
        guard genuine.status == 0, !genuine.signalled, !genuine.changedFiles.isEmpty else {
            throw Failure(
                "the genuine \(target.kind) file is not accepted by a fresh copy of its store: "
                    + "exit \(genuine.status), store changed: \(!genuine.changedFiles.isEmpty), "
                    + genuine.stderr)
        }

        let mutations = plan.mutations(ofFileOfSize: target.file.count)
        let collector = Collector(mutations)
        let start = Date()
        DispatchQueue.concurrentPerform(iterations: min(plan.jobs, mutations.count)) { worker in
            let directory = scratch.appendingPathComponent("run-\(worker)")
            while let mutation = collector.next() {
                do {
                    collector.add(
                        try attempt(
                            target, mutation.apply(to: target.file), mutation: mutation,
                            scratch: directory, pristineStore: pristineStore))
                } catch {
                    collector.add(
                        SweepOutcome(
                            mutation: mutation, status: -1, signalled: false,
                            stderr: "the sweep could not run: \(error)",
                            changedFiles: ["(unknown)"], wroteOutput: false))
                }
            }
            try? FileManager.default.removeItem(at: directory)
        }
        let seconds = Date().timeIntervalSince(start)
        try? FileManager.default.removeItem(at: scratch)

        let outcomes = collector.outcomes.sorted { $0.mutation.offset < $1.mutation.offset }
        var histogram: [String: (status: Int32, reason: String, count: Int)] = [:]
        var fieldsByOutcome: [String: [String: Int]] = [:]
        var harmless = 0
        var failures: [SweepFailure] = []
        for outcome in outcomes {
            let field = target.fields.field(of: outcome.mutation)
            switch outcome.verdict(under: target.rule, genuineHoldings: genuine.holdings) {
            case .refused(let status, let reason):
                histogram["\(status) \(reason)", default: (status, reason, 0)].count += 1
                if let refusal = target.rule.refusals.dropFirst().first(where: {
                    $0.status == status
                }) {
                    let label = "Refused with exit \(status) (\(refusal.meaning))"
                    fieldsByOutcome[label, default: [:]][field, default: 0] += 1
                }
            case .harmless:
                harmless += 1
                fieldsByOutcome["Accepted as harmless", default: [:]][field, default: 0] += 1
            case .improper(let problems):
                failures.append(SweepFailure(outcome: outcome, field: field, problems: problems))
            }
        }
        return SweepReport(
            kind: target.kind, fileSize: target.file.count, plan: plan.label,
            tried: outcomes.count, refused: outcomes.count - harmless - failures.count,
            harmless: harmless, seconds: seconds,
            histogram: histogram.values.sorted {
                ($1.count, $0.status, $0.reason) < ($0.count, $1.status, $1.reason)
            }, rule: target.rule,
            fieldsByOutcome: fieldsByOutcome.sorted { $0.key < $1.key }.map { outcome, fields in
                (
                    outcome,
                    fields.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                        ($0.key, $0.value)
                    }
                )
            }, failures: failures)
    }

    /// The text after `marker` (`tender: error: rejected: `) on its line, with hex ids,
    /// addresses, quoted values and numbers blanked (`…`, `'…'`, `N`) and the decoder's "not
    /// deterministic CBOR: CBOR:" shortened to "CBOR:", cut at 72 characters; nil when there
    /// is none.
    static func reason(
        _ stderr: String, after marker: String = "tender: error: rejected: "
    )
        -> String?
    {
        guard let start = stderr.range(of: marker) else { return nil }
        var text = String(stderr[start.upperBound...].prefix { $0 != "\n" })
        text = text.replacing(/(0x)?[0-9a-fA-F]{8,}…?/, with: "…")
        text = text.replacing(/'[^']*'/, with: "'…'")
        text = text.replacing(/\b[0-9]+\b/, with: "N").replacing("UTF-N", with: "UTF-8")
        text = text.replacing("not deterministic CBOR: CBOR: ", with: "CBOR: ")
        text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        return text.count <= 72 ? text : String(text.prefix(71)) + "…"
    }
}

/// Hands out the mutations to the workers and gathers their outcomes.
private final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Mutation]
    private var done: [SweepOutcome] = []

    init(_ mutations: [Mutation]) { pending = mutations.reversed() }

    func next() -> Mutation? { lock.withLock { pending.popLast() } }
    func add(_ outcome: SweepOutcome) { lock.withLock { done.append(outcome) } }
    var outcomes: [SweepOutcome] { lock.withLock { done } }
}

/// Names every byte of a genuine Tender file by the field it falls in (PROTOCOL §6): a CBOR
/// head, a map key, or the content of a string, e.g. `body.bundle.transfers[1].signature (s)`.
struct FieldMap: FieldNaming {
    /// The shape of a CBOR item, for naming its parts.
    indirect enum Shape: Sendable {
        case leaf
        case map([Int: (String, Shape)])
        case list(Shape)
        case tuple([(String, Shape)])

        static let note = Shape.map([
            0: ("serial", .leaf), 1: ("issuer", .leaf), 2: ("asset", .leaf),
            3: ("amount", .leaf), 4: ("owner", .leaf), 5: ("expiry", .leaf),
            6: ("signature", .leaf),
        ])
        static let transfer = Shape.map([
            0: ("inputs", .list(.leaf)),
            1: ("outputs", .list(.tuple([("owner", .leaf), ("amount", .leaf)]))),
            2: ("signature", .leaf),
        ])
        static let payment = Shape.map([
            0: ("requestId", .leaf), 1: ("payee", .leaf), 2: ("amount", .leaf),
            3: ("asset", .leaf), 4: ("memo", .leaf),
            5: ("bundle", .map([0: ("notes", .list(note)), 1: ("transfers", .list(transfer))])),
            6: ("coins", .list(.leaf)), 7: ("signature", .leaf),
        ])
        static let receipt = Shape.map([
            0: ("requestId", .leaf), 1: ("paymentDigest", .leaf), 2: ("time", .leaf),
            3: ("signature", .leaf),
        ])
        static let evidence = Shape.map([
            0: ("coin", .leaf), 1: ("first", transfer), 2: ("second", transfer),
        ])

        static func envelope(body: Shape) -> Shape {
            .map([
                0: ("kind", .leaf), 1: ("version", .leaf), 2: ("chainId", .leaf),
                3: ("vault", .leaf), 4: ("body", body),
            ])
        }
    }

    private struct Span: Sendable {
        let range: Range<Int>
        let name: String
    }

    private var spans: [Span] = []
    private let size: Int

    /// Maps `bytes`, a well-formed file whose envelope body has the shape `body`.
    init(_ bytes: [UInt8], body: Shape) {
        size = bytes.count
        _ = item(bytes, at: 0, path: "", shape: .leaf, top: body)
    }

    func field(of mutation: Mutation) -> String { field(at: mutation.offset) }

    /// The field byte `offset` falls in (the end of the file for a cut at its length).
    func field(at offset: Int) -> String {
        guard offset < size else { return "(end of file)" }
        return spans.first { $0.range.contains(offset) }?.name ?? "(unmapped)"
    }

    /// Walks the item at `start`, recording spans; returns where it ends.
    private mutating func item(
        _ bytes: [UInt8], at start: Int, path: String, shape: Shape, top: Shape? = nil
    ) -> Int {
        guard start < bytes.count else { return bytes.count }
        let major = bytes[start] >> 5
        let info = Int(bytes[start] & 0x1F)
        let extra = info < 24 ? 0 : info <= 27 ? 1 << (info - 24) : 0
        var argument = info < 24 ? info : 0
        for index in 0..<extra where start + 1 + index < bytes.count {
            argument = argument << 8 | Int(bytes[start + 1 + index])
        }
        let headEnd = min(start + 1 + extra, bytes.count)
        let name = path.isEmpty ? "envelope" : path
        switch major {
        case 0, 1:
            spans.append(Span(range: start..<headEnd, name: name))
            return headEnd
        case 2, 3:
            spans.append(Span(range: start..<headEnd, name: "\(name) (head)"))
            let end = min(headEnd + argument, bytes.count)
            if name.hasSuffix("signature") {
                // r ‖ s ‖ v
                for (part, range) in [("r", 0..<32), ("s", 32..<64), ("v", 64..<65)] {
                    let lower = min(headEnd + range.lowerBound, end)
                    let upper = min(headEnd + range.upperBound, end)
                    spans.append(Span(range: lower..<upper, name: "\(name) (\(part))"))
                }
            } else {
                spans.append(Span(range: headEnd..<end, name: name))
            }
            return end
        case 4:
            spans.append(Span(range: start..<headEnd, name: "\(name) (array head)"))
            var position = headEnd
            for index in 0..<argument {
                let (label, inner): (String, Shape) =
                    switch shape {
                    case .list(let element): ("\(path)[\(index)]", element)
                    case .tuple(let fields) where index < fields.count:
                        ("\(path).\(fields[index].0)", fields[index].1)
                    default: ("\(path)[\(index)]", .leaf)
                    }
                position = item(bytes, at: position, path: label, shape: inner)
            }
            return position
        case 5:
            spans.append(Span(range: start..<headEnd, name: "\(name) (map head)"))
            var position = headEnd
            for _ in 0..<argument {
                let keyStart = position
                let key = position < bytes.count && bytes[position] < 24 ? Int(bytes[position]) : -1
                let known: (String, Shape)? =
                    if case .map(let fields) = shape { fields[key] } else { nil }
                let label = known?.0 ?? "\(key)"
                let child = path.isEmpty ? label : "\(path).\(label)"
                position = item(bytes, at: position, path: "", shape: .leaf)
                spans.removeLast()
                spans.append(Span(range: keyStart..<position, name: "\(child) (key)"))
                position = item(bytes, at: position, path: child, shape: known?.1 ?? .leaf)
            }
            return position
        case 6:
            spans.append(Span(range: start..<headEnd, name: "\(name) (tag \(argument))"))
            if let top { return item(bytes, at: headEnd, path: "", shape: .envelope(body: top)) }
            return item(bytes, at: headEnd, path: path, shape: shape)
        default:
            spans.append(Span(range: start..<headEnd, name: name))
            return headEnd
        }
    }
}
