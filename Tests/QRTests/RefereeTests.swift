import Foundation
import TenderTestSupport
import Testing

@testable import QR

/// Both directions against independent implementations: zxing-cpp reads our PNG codes, and
/// our PNG decoder plus zbar read segno's.
@Suite(
    .enabled(if: QRReferee.python != nil || Tools.isCI, "needs the referee venv (Scripts/setup.sh)")
)
struct QRRefereeTests {
    static let payloads: [[UInt8]] = [
        Array("tender:0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf?amount=5&chain=31337".utf8),
        [0xD9, 0xD9, 0xF7, 0x00, 0x01, 0xFF, 0x00]
            + (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) },
        (0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) },
    ]

    @Test(arguments: payloads)
    func zxingReadsOurCodes(_ payload: [UInt8]) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanup() }
        let png = try dir.write(
            PNG.encode(try QREncoder.encode(payload).rasterize(scale: 4)), "ours.png")
        let found = try QRReferee.run(["decode", png])
        #expect(found == [payload.map { String(format: "%02x", $0) }.joined()])
    }

    @Test(arguments: payloads)
    func weReadSegnosCodes(_ payload: [UInt8]) throws {
        let dir = try ScratchDirectory()
        defer { dir.cleanup() }
        let path = dir.path("segno.png")
        _ = try QRReferee.run(["encode", payload.map { String(format: "%02x", $0) }.joined(), path])
        let image = try PNG.decode(dir.read("segno.png"))
        #expect(QRScanner().scan(image) == [payload])
    }
}

enum QRReferee {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Referee/qr_referee.py").path

    static let python = RefereePython.find(importing: "segno, zxingcpp, PIL")

    /// Runs the referee; returns its output lines.
    static func run(_ arguments: [String]) throws -> [String] {
        let python = try #require(
            python, "no referee Python with segno and zxing-cpp: run Scripts/setup.sh")
        let result = try Tools.run(python, [script] + arguments)
        try #require(result.status == 0, "qr_referee.py \(arguments.first ?? "") failed")
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(
            String.init)
    }
}
