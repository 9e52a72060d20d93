import Foundation
import QR
import TenderTestSupport
import Testing

@testable import Printing

/// python-escpos (Referee/escpos_referee.py) writes the same commands; the bytes must agree.
@Suite(
    .enabled(
        if: EscposReferee.python != nil || Tools.ci,
        "needs python-escpos (Tests/referee-requirements.txt)"))
struct ESCPOSRefereeTests {
    @Test func nativeQRMatchesPythonEscpos() throws {
        let payloads = [
            Payloads.request, Array("Caf\u{E9} \u{2615} 4,50 \u{20AC}".utf8),
            Array(repeating: UInt8(ascii: "7"), count: 700),
        ]
        var cases: [(payload: [UInt8], size: Int, level: QRErrorCorrection)] = []
        for payload in payloads {
            for size in [1, 3, 8, 16] {
                for level in QRErrorCorrection.allCases { cases.append((payload, size, level)) }
            }
        }
        let request = cases.map { "\(hex($0.payload)) \($0.size) \($0.level)\n" }.joined()
        let theirs = try EscposReferee.runLines(["qr-lines"], input: Data(request.utf8))
        #expect(theirs.count == cases.count)
        for (index, (payload, size, level)) in cases.enumerated() where index < theirs.count {
            #expect(
                ESCPOS.nativeQR(payload: payload, moduleSize: size, level: level) == theirs[index],
                "\(payload.count) bytes, size \(size), level \(level)")
        }
    }

    @Test(arguments: [(5, 1, 960), (200, 6, 960), (20, 13, 100), (1_800, 3, 2_303)])
    func rasterMatchesPythonEscpos(length: Int, scale: Int, fragment: Int) throws {
        // Real codes (widths that are and are not multiples of 8) in pure black and white.
        let payload = [UInt8](repeating: 0x5A, count: length)
        let matrix = try QREncoder.encode(payload, level: .low)
        let image = matrix.rasterize(scale: scale, border: 4)
        let theirs = try EscposReferee.run(
            ["raster", String(fragment)], input: Data(PGM.encode(image)))
        #expect(ESCPOS.raster(image, bandRows: fragment) == theirs)
    }

    @Test func feedAndCutMatchPythonEscpos() throws {
        let theirs = try EscposReferee.run(["cut"])
        let matrix = try QREncoder.encode(Payloads.request, level: .medium)
        let job = ESCPOS.job(
            payload: Payloads.request, matrix: matrix, profile: .epson80mm, title: "", lines: [])
        #expect(Array(job.suffix(theirs.count)) == theirs)
    }

    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}

enum EscposReferee {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Referee/escpos_referee.py").path

    static let python = RefereePython.find(importing: "escpos.printer, PIL")

    static func run(_ arguments: [String], input: Data = Data()) throws -> [UInt8] {
        let lines = try runLines(arguments, input: input)
        guard lines.count == 1 else {
            throw Failure("referee printed \(lines.count) lines, expected 1")
        }
        return lines[0]
    }

    /// Runs the referee; each output line is hex bytes.
    static func runLines(_ arguments: [String], input: Data = Data()) throws -> [[UInt8]] {
        guard let python else {
            throw Failure(
                "no Python with python-escpos: run `bash Scripts/setup.sh` or set TENDER_REFEREE_PYTHON"
                    + " (CI is set, so this fails instead of being skipped)")
        }
        let result = try Tools.run(python, [script] + arguments, input: input)
        guard result.status == 0 else {
            throw Failure(
                "escpos_referee.py \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)"
            )
        }
        return try String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map {
            line in
            let digits = Array(line.utf8)
            guard digits.count % 2 == 0 else {
                throw Failure("referee printed an odd number of hex digits")
            }
            return try stride(from: 0, to: digits.count, by: 2).map { index in
                guard
                    let byte = UInt8(
                        String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16)
                else {
                    throw Failure("referee printed non-hex output")
                }
                return byte
            }
        }
    }
}
