import ArgumentParser
import Camera
import Foundation
import NodeKit
import PaymentCodes
import QR
import Scanning
import Tender

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read QR codes from a camera, image files or raw frames; say what they are.",
        discussion: """
            Animated codes (Tender binary frames or BC-UR) are assembled across frames; a \
            receiver can join mid-loop and miss frames. Raw frames come on stdin, e.g. \
            `ffmpeg -i clip.mp4 -f rawvideo -pix_fmt gray -s 640x480 - | tender scan --frames 640x480`. \
            Exit status 0 when a code was read, 66 when none was found.
            """)

    @OptionGroup var output: OutputOptions

    @Option(help: "Camera device, e.g. /dev/video0.") var camera: String?
    @Option(help: "Camera resolution WxH (the driver may pick the nearest).") var size: String?
    @Option(parsing: .upToNextOption, help: "PNG or PGM image files.") var image: [String] = []
    @Option(help: "Read raw 8-bit grey frames of this size (WxH) from stdin.") var frames: String?
    @Option(help: "Give up after this many seconds (camera).") var timeout: Double = 60
    @Option(help: "Write the first payload's bytes to this file.") var out: String?

    func validate() throws {
        let sources = [camera != nil, !image.isEmpty, frames != nil].filter { $0 }.count
        guard sources == 1 else {
            throw ValidationError("choose one source: --camera DEV, --image FILE… or --frames WxH")
        }
    }

    func run() throws {
        try guarded {
            let pipeline = ScanPipeline()
            var found: [UInt8]?
            let handle: ([ScanEvent]) throws -> Bool = { events in
                for event in events {
                    switch event {
                    case .progress(let encoding, let recovered, let total):
                        FileHandle.standardError.write(
                            Data(
                                "animated code (\(encoding.rawValue)): \(recovered)/\(total) fragments\n"
                                    .utf8))
                    case .rejected(let why):
                        FileHandle.standardError.write(Data("skipped a code: \(why)\n".utf8))
                    case .payload(let bytes):
                        found = bytes
                        return true
                    }
                }
                return false
            }
            if !image.isEmpty {
                for path in image {
                    if try handle(pipeline.process(try Self.load(path))) { break }
                }
            } else if let frames {
                let (width, height) = try Self.size(frames, option: "--frames")
                var reader = try RawFrameReader(
                    handle: FileHandle.standardInput, width: width, height: height)
                while let frame = try reader.next() {
                    if try handle(pipeline.process(frame)) { break }
                }
            } else if let camera {
                let dimensions = try size.map { try Self.size($0, option: "--size") }
                let webcam = try Webcam(
                    device: camera, width: dimensions?.0, height: dimensions?.1)
                let deadline = Date().addingTimeInterval(timeout)
                while Date() < deadline {
                    if try handle(pipeline.process(try webcam.nextFrame())) { break }
                }
            }
            guard let payload = found else {
                FileHandle.standardError.write(
                    Data(
                        "tender: no code found (\(pipeline.framesScanned) frame(s) scanned)\n".utf8)
                )
                throw ExitCode(66)
            }
            if let out { try FileIO.writeAtomically(payload, to: out) }
            let code = ScannedCode.recognize(payload)
            if output.json {
                var result: [String: Any] = [
                    "explanation": code.explanation, "payable": code.isPayableByTender,
                    "bytes": payload.count, "framesScanned": pipeline.framesScanned,
                ]
                if let text = String(validating: payload, as: UTF8.self) { result["text"] = text }
                if let out { result["file"] = out }
                try printJSON(result)
            } else {
                print(code.explanation)
                if let text = String(validating: payload, as: UTF8.self), !text.isEmpty {
                    print(text)
                }
            }
        }
    }

    static func load(_ path: String) throws -> GreyImage {
        let bytes = try FileIO.read(path, limit: 64 << 20)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try PNG.decode(bytes) }
        if bytes.first == UInt8(ascii: "P") { return try PGM.decode(bytes) }
        throw NodeError(.usage("\(path) is neither a PNG nor a PGM image"))
    }

    static func size(_ text: String, option: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0,
            height > 0
        else { throw ValidationError("\(option) must be WIDTHxHEIGHT, e.g. 640x480") }
        return (width, height)
    }
}
