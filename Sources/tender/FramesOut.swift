import ArgumentParser
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

    /// Writes one frame per code, each repeated `hold` times; returns the frame count.
    @discardableResult
    func write(_ codes: [QRMatrix]) throws -> Int {
        guard let framesOut else { return 0 }
        let (width, height) = try ScanSource.size(size, option: "--frame-size")
        let repeats = max(1, hold)
        var clip: [UInt8] = []
        clip.reserveCapacity(codes.count * repeats * width * height)
        for matrix in codes {
            guard let frame = VideoFrame.compose(matrix, width: width, height: height) else {
                throw NodeError(
                    .usage("a \(matrix.size)-module code does not fit in \(width)x\(height)"))
            }
            for _ in 0..<repeats { clip += frame.pixels }
        }
        try FileIO.writeAtomically(clip, to: framesOut)
        return codes.count * repeats
    }
}
