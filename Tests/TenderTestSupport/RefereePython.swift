import Foundation

/// The Python that runs the independent implementations the tests cross-check against:
/// `$TENDER_REFEREE_PYTHON`, else the venv `Scripts/setup.sh` creates at the package root.
public enum RefereePython {
    /// The package root, found from this file's place in `Tests/TenderTestSupport/`.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The first candidate interpreter that can import `modules` (e.g. "segno, zxingcpp"),
    /// or nil: tests then skip on a developer machine and fail when `CI` is set.
    public static func find(importing modules: String) -> String? {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["TENDER_REFEREE_PYTHON"],
            packageRoot.appendingPathComponent(".venv-referee/bin/python").path,
        ]
        return candidates.compactMap { $0 }.first { path in
            guard FileManager.default.isExecutableFile(atPath: path) else { return false }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = ["-c", "import \(modules)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }
    }

    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// Runs `script` with `arguments` on `python`: its exit status, standard output and
    /// standard error (through a file, so a chatty referee cannot fill a pipe and stall).
    public static func run(
        _ python: String, script: String, _ arguments: [String]
    ) throws -> (status: Int32, output: Data, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script] + arguments
        let errors = FileManager.default.temporaryDirectory
            .appendingPathComponent("referee-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return (process.terminationStatus, data, text)
    }
}
