import ArgumentParser
import Foundation
import NodeHost
import NodeKit
import PaymentCodes

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
    @OptionGroup var source: ScanSource
    @Option(help: "Write the payload's bytes to this file.") var out: String?

    func validate() throws { try source.check() }

    func run() throws {
        try guarded {
            let (found, framesScanned) = try source.firstPayload()
            guard let payload = found else {
                note("tender: no code found (\(framesScanned) frame(s) scanned)")
                throw ExitCode(66)
            }
            if let out { try FileIO.writeAtomically(payload, to: out) }
            let code = ScannedCode.recognize(payload)
            if output.json {
                var result: [String: Any] = [
                    "explanation": code.explanation, "payable": code.isPayableByTender,
                    "bytes": payload.count, "framesScanned": framesScanned,
                ]
                if let text = String(validating: payload, as: UTF8.self) { result["text"] = text }
                if let out { result["file"] = out }
                try printJSON(result)
            } else {
                print(terminalSafe(code.explanation))
                if let text = String(validating: payload, as: UTF8.self), !text.isEmpty {
                    print(terminalSafe(text, keeping: ["\n", "\t"]))
                }
            }
        }
    }
}
