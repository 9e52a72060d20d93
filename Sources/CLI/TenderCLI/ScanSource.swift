import ArgumentParser
import Camera
import Foundation
import NodeHost
import NodeKit
import NodeRuntime
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
    @Option(
        help: ArgumentHelp(
            "QR decoders: both (zxing-cpp, then zbar on the frames it reads nothing in), zxing or zbar.",
            valueName: "both|zxing|zbar"))
    var decoder: QRDecoders = .both

    var isGiven: Bool { camera != nil || !image.isEmpty || frames != nil }

    func check() throws {
        let sources = [camera != nil, !image.isEmpty, frames != nil].filter { $0 }.count
        guard sources == 1 else {
            throw ValidationError("choose one source: --camera DEV, --image FILE… or --frames WxH")
        }
    }

    /// The scan these options describe (`check` has made sure there is one source).
    func scan() throws -> CodeScan {
        if let frames {
            let (width, height) = try ScanSource.size(frames, option: "--frames")
            return CodeScan(
                .frames(FileHandle.standardInput, width: width, height: height), decoders: decoder)
        }
        if let camera {
            let dimensions = try size.map { try ScanSource.size($0, option: "--size") }
            return CodeScan(
                .camera(
                    camera, width: dimensions?.0, height: dimensions?.1, fps: fps,
                    timeout: timeout), decoders: decoder)
        }
        return CodeScan(.images(image), decoders: decoder)
    }

    func firstPayload(
        skip: ([UInt8]) -> String? = { _ in nil },
        events: (CodeScan.Event) -> Void = noteScanEvent
    ) throws -> (payload: [UInt8]?, framesScanned: Int) {
        try scan().firstPayload(skip: skip, events: events)
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

extension QRDecoders: ExpressibleByArgument {}

/// A line on stderr, for progress that must not mix with stdout's results.
func note(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// What a scan saw, on stderr: progress, skipped codes, the camera opened.
func noteScanEvent(_ event: CodeScan.Event) {
    switch event {
    case .cameraOpened(let summary, let asked):
        let nearest = asked.map {
            String(format: " (asked %.2f: the nearest the driver offers)", $0)
        }
        note("camera \(summary)\(nearest ?? "")")
    case .progress(let encoding, let recovered, let total):
        note("animated code (\(encoding.rawValue)): \(recovered)/\(total) fragments")
    case .restarted(let encoding):
        note("a new animated code (\(encoding.rawValue)) replaced the unfinished one")
    case .skipped(let why): note("skipped a code: \(why)")
    }
}
