import ArgumentParser
import Foundation
import NodeHost
import NodeKit
import QR
import Scanning
import Tender

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a Tender file as QR codes: one code, or an animated loop when it is large.",
        discussion: """
            On a terminal the loop plays at --fps until interrupted (or --loops passes). With \
            --frames-out, raw 8-bit grey frames of --frame-size are written instead, for a video \
            output or the camera lab (`ffmpeg -f rawvideo -pix_fmt gray -s 640x480 -i FILE …`).
            """)

    @Argument(help: "The Tender file (payment, receipt, request, evidence).") var file: String
    @Option(help: "Animated encoding: binary (denser) or ur (BC-UR, interoperable).")
    var encoding: AnimatedCode.Encoding = .binary
    @Option(
        name: .customLong("fragment"),
        help: "Bytes per animated frame (smaller codes scan more easily).")
    var fragment: Int?
    @Option(help: "Frames per second on a terminal.") var fps: Double = 10
    @Option(help: "Passes of the loop (0: until interrupted, terminal only).") var loops = 0
    @OptionGroup var video: FramesOutOptions
    @Flag(help: "Terminal output for a dark background.") var dark = false
    @Flag(help: "With --frames-out: print what was written as JSON.") var json = false

    func validate() throws {
        guard !json || video.framesOut != nil else {
            throw ValidationError(
                "--json goes with --frames-out (on a terminal the codes are the output)")
        }
        // Every pass written with --frames-out is drawn in memory first (on a terminal the
        // passes are only played).
        if video.framesOut != nil, !(0...FramesOutOptions.maxLoops).contains(loops) {
            throw ValidationError(
                "--loops must be 0…\(FramesOutOptions.maxLoops) with --frames-out")
        }
        let lengths = AnimatedCode.fragmentLengths(encoding)
        if let fragment, !lengths.contains(fragment) {
            throw ValidationError(
                "--fragment must be \(lengths.lowerBound)…\(lengths.upperBound) for \(encoding.rawValue) codes"
            )
        }
    }

    func run() throws {
        try guarded {
            let payload = try FileIO.read(file, limit: Envelope.maxBytes)
            var code = try AnimatedCode(
                payload: payload, encoding: encoding, fragmentLength: fragment)
            if let framesOut = video.framesOut {
                let passes = max(1, loops)
                let codes = try (0..<(code.frameCount * passes)).map { _ in try code.nextMatrix() }
                let count = try video.write(codes)
                if json {
                    try printJSON([
                        "frames": count, "codes": code.frameCount, "size": video.size,
                        "file": framesOut,
                    ])
                } else {
                    print("\(count) frame(s) of \(video.size) written to \(framesOut)")
                }
                return
            }
            var shown = 0
            while loops == 0 || shown < code.frameCount * loops {
                let matrix = try code.nextMatrix()
                showOnTerminal(
                    matrix, dark: dark,
                    caption:
                        "frame \(shown % code.frameCount + 1)/\(code.frameCount), \(payload.count) bytes"
                )
                shown += 1
                if code.frameCount == 1 && loops == 0 { return }
                Thread.sleep(forTimeInterval: 1 / max(0.5, fps))
            }
        }
    }
}

extension AnimatedCode.Encoding: ExpressibleByArgument {}

/// Replaces the terminal's contents with `matrix` and a caption line: the cursor is homed and
/// the screen cleared, so an animated loop plays in place. Written unbuffered, so each frame
/// appears at once.
func showOnTerminal(_ matrix: QRMatrix, dark: Bool, caption: String) {
    let screen = "\u{1B}[H\u{1B}[2J" + matrix.terminalText(inverted: dark) + "\n\(caption)\n"
    FileHandle.standardOutput.write(Data(screen.utf8))
}
