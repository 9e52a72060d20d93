import Foundation
import TenderTestSupport
import Testing

@testable import Fountain

/// BC-UR and Tender frames against an independent implementation written from the
/// specifications (Referee/fountain_referee.py, a peeling decoder where ours eliminates):
/// our parts must be the referee's text exactly, and each side must decode the other's
/// parts with some of them lost.
@Suite(
    .enabled(if: FountainReferee.shouldRun, "needs the referee venv (bash Scripts/setup.sh)")
)
struct FountainRefereeTests {
    /// A UR and how to split it.
    struct Case: CustomStringConvertible, Sendable {
        var type: String
        var length: Int
        var maxFragment: Int
        var minFragment = 10
        var firstSeqNum: UInt32 = 0

        var ur: UR {
            try! UR(
                type: type, cbor: cborByteString(makeMessage(length, seed: "referee-\(length)")))
        }
        var description: String {
            "\(type) \(length) B, fragments ≤ \(maxFragment) ≥ \(minFragment), after \(firstSeqNum)"
        }
    }

    static let cases: [Case] = [
        Case(type: "bytes", length: 1, maxFragment: 100),  // single part
        Case(type: "bytes", length: 9, maxFragment: 5, minFragment: 1),
        Case(type: "bytes", length: 100, maxFragment: 30),
        Case(type: "tender", length: 1000, maxFragment: 100),
        Case(type: "crypto-psbt", length: 2331, maxFragment: 200),
        Case(type: "tender", length: 5000, maxFragment: 200, firstSeqNum: 7),
        Case(type: "bytes", length: 12_345, maxFragment: 1667),
        Case(type: "bytes", length: 32_767, maxFragment: 1000, firstSeqNum: 100),
        // Big seqNums: four-byte CBOR integers and seeds, without wrapping.
        Case(type: "x-9", length: 777, maxFragment: 64, firstSeqNum: 4_294_967_000),
    ]

    /// Parts a receiver gets: first `count` of the stream, about a third lost.
    static func survivors(_ parts: [String]) -> [String] {
        parts.enumerated().filter { index, _ in
            index != 0 && (index &* 2_654_435_761 >> 5) % 100 >= 35
        }.map(\.element)
    }

    static func ourParts(_ test: Case, count: Int) -> [String] {
        var encoder = UREncoder(
            ur: test.ur, maxFragmentLength: test.maxFragment,
            minFragmentLength: test.minFragment, firstSeqNum: test.firstSeqNum)
        return (0..<count).map { _ in encoder.nextPart() }
    }

    static func partCount(_ test: Case) -> Int {
        let encoder = UREncoder(
            ur: test.ur, maxFragmentLength: test.maxFragment, minFragmentLength: test.minFragment)
        return min(4 * encoder.seqLen + 40, 400)
    }

    static func theirParts(_ test: Case, count: Int) throws -> [String] {
        try FountainReferee.strings([
            "ur-encode", test.type, hex(test.ur.cbor), "\(test.maxFragment)",
            "\(test.minFragment)", "\(test.firstSeqNum)", "\(count)",
        ])
    }

    /// The referee first passes the specifications' own vectors.
    @Test func refereePassesTheSpecificationVectors() throws {
        #expect(try FountainReferee.run(["self-test"]) as? String == "ok")
    }

    @Test(arguments: cases)
    func ourPartsAreTheRefereesText(_ test: Case) throws {
        let count = Self.partCount(test)
        #expect(Self.ourParts(test, count: count) == (try Self.theirParts(test, count: count)))
    }

    @Test(arguments: cases)
    func refereeDecodesOurPartsDespiteLosses(_ test: Case) throws {
        let parts = Self.survivors(Self.ourParts(test, count: Self.partCount(test)))
        for variant in [parts, parts.reversed().map { $0.uppercased() }] {
            let result = try FountainReferee.decode("ur-decode", variant)
            #expect(result["error"] == nil, "\(result)")
            #expect(result["type"] as? String == test.type)
            #expect(result["cbor"] as? String == hex(test.ur.cbor))
        }
    }

    @Test(arguments: cases)
    func weDecodeTheRefereesPartsDespiteLosses(_ test: Case) throws {
        let parts = Self.survivors(try Self.theirParts(test, count: Self.partCount(test)))
        for variant in [parts.map { $0.uppercased() }, parts.reversed()] {
            var decoder = URDecoder()
            for part in variant where decoder.result == nil {
                _ = try decoder.receive(part)
            }
            #expect(decoder.result == test.ur)
        }
    }

    /// One letter of a part's Bytewords changed: a word that does not exist, or a checksum
    /// that no longer matches. Both must refuse the part.
    @Test func damagedPartsAreRefusedByBoth() throws {
        let parts = Self.ourParts(Self.cases[3], count: 12) + Self.ourParts(Self.cases[0], count: 1)
        var damaged: [String] = []
        for (index, part) in parts.enumerated() {
            var letters = Array(part)
            let bodyStart = try #require(letters.lastIndex(of: "/")) + 1
            for step in 0..<4 {
                let position = bodyStart + (index * 13 + step * 29) % (letters.count - bodyStart)
                let old = letters[position].asciiValue! - 97
                letters[position] = Character(
                    Unicode.Scalar(97 + (old + 1 + UInt8(step * 7 + index) % 25) % 26))
                damaged.append(String(letters))
                letters = Array(part)
            }
        }
        for part in damaged {
            let result = try FountainReferee.decode("ur-decode", [part])
            let error = result["error"] as? String ?? ""
            #expect(
                !error.isEmpty && !error.contains("incomplete"), "referee takes \(part): \(result)")
            var decoder = URDecoder()
            #expect(throws: FountainError.self, "\(part)") { try decoder.receive(part) }
        }
    }

    // MARK: Tender binary frames (Docs/PROTOCOL.md §9.2)

    static let frameCases: [(length: Int, fragment: Int)] = [
        (1, 2310), (100, 7), (2331, 2310), (5000, 2310), (10_000, 300), (20_000, 1000),
    ]

    @Test(arguments: 0..<frameCases.count)
    func framesAgreeWithTheReferee(_ index: Int) throws {
        let (length, fragment) = Self.frameCases[index]
        let message = makeMessage(length, seed: "frames-\(length)")
        var encoder = try FrameEncoder(message: message, fragmentLength: fragment)
        let count = min(4 * encoder.frameCount + 40, 400)
        let ours = (0..<count).map { _ in hex(encoder.nextFrame()) }
        let theirs = try FountainReferee.strings([
            "frames-encode", hex(message), "\(fragment)", "\(count)",
        ])
        #expect(ours == theirs)

        let result = try FountainReferee.decode("frames-decode", Self.survivors(ours))
        #expect(result["error"] == nil, "\(result)")
        #expect(result["message"] as? String == hex(message))

        var decoder = FrameDecoder()
        for frame in Self.survivors(theirs).reversed() where decoder.message == nil {
            _ = try decoder.receive(bytes(hex: frame))
        }
        #expect(decoder.message == message)
    }

    func bytes(hex text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<($0 + 2)], as: UTF8.self), radix: 16)!
        }
    }
}

/// Runs Referee/fountain_referee.py.
enum FountainReferee {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Referee/fountain_referee.py").path

    static let python = RefereePython.find(importing: "cbor2")

    /// Without the referee the suite is skipped on a developer machine, but runs (and fails)
    /// when `CI` is set, so a missing referee never passes silently.
    static var shouldRun: Bool { python != nil || RefereePython.isCI }

    /// The JSON the referee prints for `arguments`.
    static func run(_ arguments: [String]) throws -> Any {
        let python = try #require(
            python,
            "no referee Python with cbor2: run bash Scripts/setup.sh (CI is set, so this fails)")
        let (status, data, stderr) = try RefereePython.run(python, script: script, arguments)
        try #require(
            status == 0,
            "fountain_referee.py \(arguments.first ?? "") failed: \(stderr)")
        return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
    }

    static func strings(_ arguments: [String]) throws -> [String] {
        try #require(try run(arguments) as? [String])
    }

    /// The referee's decoding of `items` (`command` is ur-decode or frames-decode).
    static func decode(_ command: String, _ items: [String]) throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("fountain-referee-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: items).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try #require(try run([command, file.path]) as? [String: Any])
    }
}
