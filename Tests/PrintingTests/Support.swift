import Foundation
import QR
import TenderTestSupport
import Testing

/// External programs the tests use as independent witnesses (poppler's pdftoppm/pdftotext,
/// zbar's zbarimg, the python-escpos referee). A test that needs one is skipped when it is
/// missing on a developer machine, but runs and fails in CI (`$CI` set), so a missing tool
/// never passes silently there.
enum Tools {
    static let ci = ProcessInfo.processInfo.environment["CI"] != nil

    static let pdftoppm = installed("/usr/bin/pdftoppm")
    static let pdftotext = installed("/usr/bin/pdftotext")
    static let zbarimg = installed("/usr/bin/zbarimg")
    static let mkfifo = installed("/usr/bin/mkfifo")

    static func installed(_ path: String) -> String? {
        FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Whether a test needing `tool` should run: it is there, or CI wants the failure.
    static func runs(_ tool: String?) -> Bool { tool != nil || ci }

    /// The path, or a test failure that says what to install.
    static func require(_ tool: String?, _ name: String, package: String) throws -> String {
        guard let tool else {
            throw Failure(
                "\(name) is missing: apt install \(package) (CI is set, so this fails instead of skipping)"
            )
        }
        return tool
    }

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Runs `executable arguments` (no shell), `input` on stdin; waits for it.
    static func run(
        _ executable: String, _ arguments: [String], input: Data = Data()
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let writer = stdin.fileHandleForWriting
        let feeding = Thread {
            try? writer.write(contentsOf: input)
            try? writer.close()
        }
        feeding.start()
        let errorReader = stderr.fileHandleForReading
        let errors = Box()
        let drained = DispatchSemaphore(value: 0)
        let draining = Thread {
            errors.data = errorReader.readDataToEndOfFile()
            drained.signal()
        }
        draining.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        drained.wait()
        return Result(
            status: process.terminationStatus, stdout: output,
            stderr: String(decoding: errors.data, as: UTF8.self))
    }

    /// Data handed from a helper thread; the thread finishes before it is read.
    final class Box: @unchecked Sendable {
        var data = Data()
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Payloads the tests print: a Tender request URI as a stall would show it, and binary bytes
/// (every value, NUL included) that only a binary-clean path survives.
enum Payloads {
    static let request = Array(
        "tender:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed?amount=4.50&asset=EUR&chain=1&id=7f3a&exp=1795000000"
            .utf8)
    static let binary: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
}

/// Every QR payload zbar finds in `image`, through the QR module's scanner.
func scanned(_ image: GreyImage) -> [[UInt8]] { QRScanner().scan(image) }
