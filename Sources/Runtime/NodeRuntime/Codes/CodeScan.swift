import Camera
import Foundation
import NodeHost
import NodeKit
import QR
import Scanning

/// One scan for the first code a caller wants, from image files, raw grey frames on a file
/// handle or a camera: an animated code is assembled first, and what happens on the way
/// (fragments recovered, codes skipped, the camera opened) is told to `events` for the front
/// end to show. `scan`, `receive --qr` and `pay --ble --camera` read codes through it.
public struct CodeScan {
    public enum Source {
        /// PNG or PGM files, read one after another until a wanted code is found.
        case images([String])
        /// Raw 8-bit grey frames of `width`×`height` read from `handle` until it ends.
        case frames(FileHandle, width: Int, height: Int)
        /// A camera device, at the size and rate asked for (the driver picks the nearest),
        /// read until `timeout` seconds pass.
        case camera(String, width: Int?, height: Int?, fps: Double?, timeout: Double)
    }

    /// What a scan saw on its way to a payload.
    public enum Event: Sendable, Equatable {
        /// The camera is open: its device, size and rate, and the rate asked for when the
        /// driver offers another.
        case cameraOpened(summary: String, askedFPS: Double?)
        /// Fragments of an animated code recovered so far.
        case progress(AnimatedEncoding, recovered: Int, total: Int)
        /// A new animated code replaced the unfinished one.
        case restarted(AnimatedEncoding)
        /// A code that was read and refused (malformed, or not what the caller wants): why.
        case skipped(String)
    }

    public let source: Source
    /// The QR decoders that read its frames.
    public let decoders: QRDecoders

    public init(_ source: Source, decoders: QRDecoders = .both) {
        self.source = source
        self.decoders = decoders
    }

    /// Scans until one whole payload arrives that `skip` has no objection to (it returns why
    /// a payload is not wanted, or nil). nil when the source ends or times out first.
    public func firstPayload(
        skip: ([UInt8]) -> String? = { _ in nil }, events: (Event) -> Void = { _ in }
    ) throws -> (payload: [UInt8]?, framesScanned: Int) {
        let pipeline = ScanPipeline(decoders: decoders)
        func handle(_ scanned: [ScanEvent]) -> [UInt8]? {
            for event in scanned {
                switch event {
                case .progress(let encoding, let recovered, let total):
                    events(.progress(encoding, recovered: recovered, total: total))
                case .rejected(let why): events(.skipped(why))
                case .restarted(let encoding): events(.restarted(encoding))
                case .payload(let bytes):
                    guard let why = skip(bytes) else { return bytes }
                    events(.skipped(why))
                }
            }
            return nil
        }
        switch source {
        case .images(let paths):
            for path in paths {
                if let found = handle(pipeline.process(try Self.load(path))) {
                    return (found, pipeline.framesScanned)
                }
            }
        case .frames(let input, let width, let height):
            var reader = try RawFrameReader(handle: input, width: width, height: height)
            while let frame = try reader.next() {
                if let found = handle(pipeline.process(frame)) {
                    return (found, pipeline.framesScanned)
                }
            }
        case .camera(let device, let width, let height, let fps, let timeout):
            let webcam = try Webcam(device: device, width: width, height: height, frameRate: fps)
            let offered = webcam.frameRate.map { abs($0 - (fps ?? $0)) <= 0.01 } ?? false
            events(.cameraOpened(summary: webcam.summary, askedFPS: offered ? nil : fps))
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

    /// A PNG or PGM image file.
    public static func load(_ path: String) throws -> GreyImage {
        let bytes = try FileIO.read(path, limit: 64 << 20)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try PNG.decode(bytes) }
        if bytes.first == UInt8(ascii: "P") { return try PGM.decode(bytes) }
        throw NodeError(.usage("\(path) is neither a PNG nor a PGM image"))
    }
}
