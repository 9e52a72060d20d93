import Foundation
import QR
import TenderTestSupport
import Testing

/// Encode → pixels → a decoder (zbar unless told): the whole path a real code travels.
func scanRoundTrip(
    _ payload: [UInt8], level: QRErrorCorrection = .medium, scale: Int = 4,
    decoder: Decoder = .zbar
) throws -> [[UInt8]] {
    let matrix = try QREncoder.encode(payload, level: level)
    return decoder.scan(matrix.rasterize(scale: scale, border: 4))
}

/// The decoders the scanning pipeline reads with: zbar and zxing-cpp's two binarizers.
enum Decoder: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case zbar, zxingLocalAverage, zxingGlobalHistogram

    func scan(_ image: GreyImage) -> [[UInt8]] {
        switch self {
        case .zbar: QRScanner().scan(image)
        case .zxingLocalAverage: ZXingScanner(binarizer: .localAverage).scan(image)
        case .zxingGlobalHistogram: ZXingScanner(binarizer: .globalHistogram).scan(image)
        }
    }

    var testDescription: String { rawValue }
}

/// The independent tools the interop tests compare against. Missing tools skip those tests
/// on a developer machine, but fail them when `CI` is set.
enum Tools {
    /// ImageMagick 6 itself: `convert` on PATH may be a stand-in that is not ImageMagick.
    static let convert = "/usr/bin/convert"
    static let zbarimg = "/usr/bin/zbarimg"

    static let missingMessage =
        "ImageMagick (\(convert)) or zbarimg (\(zbarimg)) is not installed: interop tests "
        + "skipped (set CI to make that a failure)"

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    static func installed(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }

    /// Whether tests needing `paths` should run: always on CI (they then fail if missing).
    static func shouldRun(_ paths: String...) -> Bool {
        isCI || paths.allSatisfy(installed)
    }

    static func require(_ paths: String...) throws {
        for path in paths {
            try #require(installed(path), "\(path) is missing (CI is set, so this is a failure)")
        }
    }

    /// Runs `path` with `arguments`; returns its exit status and standard output.
    @discardableResult
    static func run(
        _ path: String, _ arguments: [String]
    ) throws -> (status: Int32, output: [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](output))
    }

    /// Runs ImageMagick and fails the test if it does.
    static func convert(_ arguments: [String]) throws {
        let result = try run(convert, arguments)
        try #require(result.status == 0, "convert \(arguments.joined(separator: " ")) failed")
    }
}

/// A fresh directory for one test's files, removed by `cleanup()`.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = try TemporaryDirectory("qrtests").url
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

/// IHDR bit depth and colour type of a PNG file, to prove ImageMagick wrote the form we asked.
func pngForm(_ bytes: [UInt8]) -> (bitDepth: UInt8, colorType: UInt8) {
    (bytes[24], bytes[25])
}
