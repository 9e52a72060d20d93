import ArgumentParser
import Camera
import Foundation
import NodeHost
import NodeKit
import QR
import Scanning

/// Where scanned codes come from: a camera, image files or raw frames on stdin. Shared by
/// `scan`, `receive --qr` and anything else that reads codes.
struct ScanSource: ParsableArguments {
    @Option(help: "Camera device, e.g. /dev/video0.") var camera: String?
    @Option(help: "Camera resolution WxH (the driver may pick the nearest).") var size: String?
    @Option(help: "Camera frame rate, frames per second (the driver may pick the nearest).")
    var fps: Double?
    @Option(parsing: .upToNextOption, help: "PNG or PGM image files.") var image: [String] = []
    @Option(help: "Read raw 8-bit grey frames of this size (WxH) from stdin.") var frames: String?
    @Option(help: "Give up after this many seconds (camera).") var timeout: Double = 60

    var isGiven: Bool { camera != nil || !image.isEmpty || frames != nil }

    func check() throws {
        let sources = [camera != nil, !image.isEmpty, frames != nil].filter { $0 }.count
        guard sources == 1 else {
            throw ValidationError("choose one source: --camera DEV, --image FILE… or --frames WxH")
        }
    }

    /// The scan these options describe.
    var scan: CodeScan {
        CodeScan(
            camera: camera, size: size, fps: fps, images: image, frames: frames, timeout: timeout)
    }

    func firstPayload(
        skip: ([UInt8]) -> String? = { _ in nil }
    ) throws -> (payload: [UInt8]?, framesScanned: Int) {
        try scan.firstPayload(skip: skip)
    }

    static func load(_ path: String) throws -> GreyImage {
        let bytes = try FileIO.read(path, limit: 64 << 20)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try PNG.decode(bytes) }
        if bytes.first == UInt8(ascii: "P") { return try PGM.decode(bytes) }
        throw NodeError(.usage("\(path) is neither a PNG nor a PGM image"))
    }

    static func size(_ text: String, option: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0,
            height > 0
        else { throw ValidationError("\(option) must be WIDTHxHEIGHT, e.g. 640x480") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= RawFrameReader.maxPixels else {
            throw ValidationError(
                "\(option) \(text) is too large (at most \(RawFrameReader.maxPixels) pixels)")
        }
        return (width, height)
    }
}

/// A line on stderr, for progress that must not mix with stdout's results.
func note(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// One scan for a code, as plain values: what `ScanSource` parses, or what another command
/// (`pay --ble --camera`) asks for.
struct CodeScan {
    var camera: String?
    var size: String?
    var fps: Double?
    var images: [String] = []
    var frames: String?
    var timeout: Double = 60

    /// Scans until one whole payload arrives (an animated sequence is assembled first) that
    /// `skip` has no objection to (it returns why a payload is not wanted, or nil); progress,
    /// refused and skipped codes go to stderr. nil when the source ends or times out first.
    func firstPayload(
        skip: ([UInt8]) -> String? = { _ in nil }
    ) throws -> (payload: [UInt8]?, framesScanned: Int) {
        let pipeline = ScanPipeline()
        func handle(_ events: [ScanEvent]) -> [UInt8]? {
            for event in events {
                switch event {
                case .progress(let encoding, let recovered, let total):
                    note("animated code (\(encoding.rawValue)): \(recovered)/\(total) fragments")
                case .rejected(let why):
                    note("skipped a code: \(why)")
                case .restarted(let encoding):
                    note("a new animated code (\(encoding.rawValue)) replaced the unfinished one")
                case .payload(let bytes):
                    guard let why = skip(bytes) else { return bytes }
                    note("skipped a code: \(why)")
                }
            }
            return nil
        }
        if !images.isEmpty {
            for path in images {
                if let found = handle(pipeline.process(try ScanSource.load(path))) {
                    return (found, pipeline.framesScanned)
                }
            }
        } else if let frames {
            let (width, height) = try ScanSource.size(frames, option: "--frames")
            var reader = try RawFrameReader(
                handle: FileHandle.standardInput, width: width, height: height)
            while let frame = try reader.next() {
                if let found = handle(pipeline.process(frame)) {
                    return (found, pipeline.framesScanned)
                }
            }
        } else if let camera {
            let dimensions = try size.map { try ScanSource.size($0, option: "--size") }
            let webcam = try Webcam(
                device: camera, width: dimensions?.0, height: dimensions?.1, frameRate: fps)
            var asked = ""
            if let fps, webcam.frameRate.map({ abs($0 - fps) > 0.01 }) ?? true {
                asked = String(format: " (asked %.2f: the nearest the driver offers)", fps)
            }
            note("camera \(webcam.summary)\(asked)")
            let deadline = Date().addingTimeInterval(timeout)
            while case let remaining = deadline.timeIntervalSinceNow, remaining > 0 {
                guard let frame = try webcam.nextFrame(timeout: min(remaining, 1)) else { continue }
                if let found = handle(pipeline.process(frame)) {
                    return (found, pipeline.framesScanned)
                }
            }
        }
        return (nil, pipeline.framesScanned)
    }

}
