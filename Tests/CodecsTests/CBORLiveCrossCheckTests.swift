import Codecs
import Foundation
import TenderTestSupport
import Testing

/// Fresh random values made on the Swift side, encoded here and read back by cbor2 through
/// `Vectors/cbor_vectors.py --check`: the referee must decode our bytes and re-encode them
/// (RFC 8949 order) to exactly the same bytes. Skipped only when python3 or cbor2 is missing.
@Suite(
    .enabled(
        if: Python.interpreter != nil || RefereePython.isCI,
        "needs the referee venv with cbor2 (Scripts/setup.sh)"))
struct CBORLiveCrossCheckTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Vectors/cbor_vectors.py")

    @Test func cbor2ReadsOurEncodings() throws {
        var random = SeededGenerator(seed: 0xCB0A)
        let values = (0..<300).map { _ in Self.randomValue(&random, depth: 0) }
        let encodings = values.map { hex($0.encoded()) }
        let result = try #require(
            Python.run(
                [Self.script.path, "--check"], input: encodings.joined(separator: "\n") + "\n"))
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == encodings.count)
        for (ours, theirs) in zip(encodings, lines) {
            #expect(ours == theirs)
        }
    }

    // MARK: Random values within what cbor2 round-trips as plain data

    /// Tags cbor2 leaves uninterpreted (it gives meaning to 0-5, 25, 28-30, 35-37, 100, …).
    static let tags: [UInt64] = [6, 7, 24, 31, 40, 99, 255, 1000, 65536, 1 << 32, .max]
    static let scalars: [String] = [
        "a", "Z", "0", " ", "\"", "\\", "\u{e9}", "\u{301}", "\u{6c34}", "\u{df}", "\u{10151}",
        "\u{1F600}",
    ]

    static func randomValue(_ random: inout SeededGenerator, depth: Int) -> CBOR {
        switch Int.random(in: 0..<(depth < 3 ? 14 : 9), using: &random) {
        case 0: return .unsigned(randomInteger(&random))
        case 1: return .negative(randomInteger(&random))
        case 2: return .bytes(randomBytes(&random))
        case 3: return .text(randomText(&random))
        case 4: return .float(randomFloat(&random))
        case 5:
            let simple =
                Bool.random(using: &random)
                ? UInt8.random(in: 0..<20, using: &random)
                : UInt8.random(in: 32...255, using: &random)
            return .simple(simple)
        case 6: return .boolean(Bool.random(using: &random))
        case 7: return .null
        case 8: return .undefined
        case 9, 10:
            let count = [0, 1, 2, 3, 5, 24].randomElement(using: &random)!
            return .array((0..<count).map { _ in randomValue(&random, depth: depth + 1) })
        case 11, 12:
            var keys: Set<[UInt8]> = []
            var entries: [CBOR.Entry] = []
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                let key = randomKey(&random)
                if keys.insert(key.encoded()).inserted {
                    entries.append(.init(key, randomValue(&random, depth: depth + 1)))
                }
            }
            return .map(entries)
        default:
            return .tagged(
                tags.randomElement(using: &random)!, randomValue(&random, depth: depth + 1))
        }
    }

    static func randomInteger(_ random: inout SeededGenerator) -> UInt64 {
        let bits = [4, 5, 8, 9, 16, 17, 32, 33, 64].randomElement(using: &random)!
        let all = bits == 64 ? UInt64.max : (1 << UInt64(bits)) - 1
        return Int.random(in: 0..<5, using: &random) == 0 ? all : random.next() & all
    }

    static func randomBytes(_ random: inout SeededGenerator) -> [UInt8] {
        let count = [0, 1, 5, 23, 24, 40, 300].randomElement(using: &random)!
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    static func randomText(_ random: inout SeededGenerator) -> String {
        let count = [0, 1, 3, 10, 30].randomElement(using: &random)!
        return (0..<count).map { _ in scalars.randomElement(using: &random)! }.joined()
    }

    static func randomFloat(_ random: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: random.next())))
        case 1: return Double(bitPattern: random.next())
        case 2:
            return [0, -0.0, .infinity, -.infinity, .nan, 65504, 0x1p-24, 1.1, 0.1]
                .randomElement(using: &random)!
        default:
            // A half-precision value: sign, 5-bit exponent, 10-bit mantissa scaled exactly.
            let mantissa = Double(Int.random(in: 0..<1024, using: &random))
            let exponent = Int.random(in: -24...5, using: &random)
            let sign: Double = Bool.random(using: &random) ? -1 : 1
            return sign * mantissa * pow(2, Double(exponent))
        }
    }

    static func randomKey(_ random: inout SeededGenerator) -> CBOR {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .unsigned(randomInteger(&random))
        case 1: return .negative(randomInteger(&random))
        case 2: return .text(randomText(&random))
        default: return .bytes(Array(randomBytes(&random).prefix(3)))
        }
    }
}

/// The python3 on PATH, for referee scripts.
enum Python {
    /// The referee venv's Python (or `$TENDER_REFEREE_PYTHON`), if it has cbor2.
    static let interpreter = RefereePython.find(importing: "cbor2")

    /// Runs python3 with `input` on stdin (through a file, so large outputs cannot deadlock).
    static func run(_ arguments: [String], input: String) -> (status: Int32, output: String)? {
        let inputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("cbor-check-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: inputFile) }
        let process = Process()
        let output = Pipe()
        do {
            try Data(input.utf8).write(to: inputFile)
            guard let interpreter else { return nil }
            process.executableURL = URL(fileURLWithPath: interpreter)
            process.arguments = arguments
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
