import ArgumentParser
import NodeHost
import NodeKit
import QR
import Scanning

/// Codes as raw 8-bit grey video frames instead of (or besides) the terminal: for a video
/// output (a V4L2 output device, `ffmpeg -f rawvideo -pix_fmt gray -s 640x480 -i FILE …`) or
/// the camera lab. Shared by `show`, `pay --qr` and `receive --qr`.
struct FramesOutOptions: ParsableArguments {
    @Option(
        name: .customLong("frames-out"), help: "Write the codes as raw grey frames to this file.")
    var framesOut: String?
    @Option(name: .customLong("frame-size"), help: "Frame size WxH for --frames-out.")
    var size = "640x480"
    @Option(
        help: "Video frames each code is held for with --frames-out (6 at 60 fps = 10 codes/s).")
    var hold = 1

    /// The largest clip written in one go (it is built in memory, then written atomically).
    static let maxClipBytes = 1 << 30
    /// The most passes of a loop a clip holds (`--loops`).
    static let maxLoops = 100

    func validate() throws {
        guard (1...600).contains(hold) else { throw ValidationError("--hold must be 1…600") }
        if framesOut != nil { _ = try ScanSource.size(size, option: "--frame-size") }
    }

    /// What to write, as plain values (for a transport's closure).
    var clip: Clip { Clip(framesOut: framesOut, size: size, hold: hold) }

    @discardableResult
    func write(_ codes: [QRMatrix]) throws(NodeError) -> Int { try clip.write(codes) }
}

/// Codes as a clip of raw grey frames, each code held for `hold` frames.
struct Clip: Sendable {
    let framesOut: String?
    let size: String
    let hold: Int

    /// Writes one frame per code, each repeated `hold` times; returns the frame count.
    @discardableResult
    func write(_ codes: [QRMatrix]) throws(NodeError) -> Int {
        try write(rendered: try render(codes))
        return codes.count * hold
    }

    /// Writes frames `render` made (nothing without --frames-out).
    func write(rendered frames: [UInt8]?) throws(NodeError) {
        guard let framesOut, let frames else { return }
        try FileIO.writeAtomically(frames, to: framesOut, replacing: true)
    }

    /// The frames `write` would write (nil without --frames-out), built in memory.
    func render(_ codes: [QRMatrix]) throws(NodeError) -> [UInt8]? {
        guard framesOut != nil else { return nil }
        guard let (width, height) = try? ScanSource.size(size, option: "--frame-size") else {
            throw NodeError(.usage("--frame-size must be WIDTHxHEIGHT, e.g. 640x480"))
        }
        let frames = codes.count.multipliedReportingOverflow(by: hold)
        let bytes = frames.partialValue.multipliedReportingOverflow(by: width * height)
        guard !frames.overflow, !bytes.overflow, bytes.partialValue <= FramesOutOptions.maxClipBytes
        else {
            throw NodeError(
                .usage(
                    "\(codes.count) code(s) × \(hold) × \(width)x\(height) is more than \(FramesOutOptions.maxClipBytes >> 20) MiB of frames: use fewer loops, a smaller --hold or --frame-size"
                ))
        }
        var clip: [UInt8] = []
        clip.reserveCapacity(bytes.partialValue)
        for matrix in codes {
            guard let frame = VideoFrame.compose(matrix, width: width, height: height) else {
                throw NodeError(
                    .usage("a \(matrix.size)-module code does not fit in \(width)x\(height)"))
            }
            for _ in 0..<hold { clip += frame.pixels }
        }
        return clip
    }
}
