import Foundation
import Testing

/// The layers as the folder tree draws them (Docs/ARCHITECTURE.md): the command line reaches
/// Bluetooth, the API and the chains only through the runtime, and the core and the store name
/// no command of it.
@Suite struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file under `folder`, with its text.
    static func sources(_ folder: String) throws -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        let files =
            FileManager.default.enumerator(atPath: base.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try files.map {
            ($0, try String(contentsOf: base.appendingPathComponent($0), encoding: .utf8))
        }
    }

    @Test func theCommandLineImportsNoAdapterTheRuntimeOwns() throws {
        let forbidden = [
            "Bluetooth", "BlueZ", "DBus", "NodeAPI", "Hummingbird", "ServiceLifecycle",
            "EVMSettlement", "EVM", "AsyncHTTPClient", "NodeLogging",
        ]
        let files = try Self.sources("Sources/CLI")
        #expect(!files.isEmpty)
        for (path, text) in files {
            for module in forbidden {
                #expect(!text.contains("\nimport \(module)\n"), "\(path) imports \(module)")
            }
        }
    }

    /// Errors below the command line carry a `ResolvingStep`; each front end names it (the
    /// API, a front end of its own, names the host's commands in its wording).
    @Test func nothingBelowTheCommandLineNamesACommandOrAnOption() throws {
        // A command, or an option inside a string literal ("… --rpc URL").
        let command = try Regex(
            #"tender (init|issuer|chain|sync|node|pay|receive|payments|backup|restore|request|scan|show|print|vault|trust|balance|history|evidence|inspect|address|peers|receipt)\b|"[^"]*[\s(]--[a-z][a-z-]+|"--[a-z][a-z-]+"#
        )
        let folders = [
            "Sources/Core", "Sources/Adapters", "Sources/Node", "Sources/Runtime",
        ]
        for folder in folders {
            for (path, text) in try Self.sources(folder) where !path.hasPrefix("NodeAPI/") {
                // The registry file's own header: people edit chains.toml with those commands.
                if path.hasSuffix("ChainRegistryFile.swift") { continue }
                // Comments, and the node's log naming the process it is.
                let code = text.split(separator: "\n").filter {
                    !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                        && !$0.contains("logger.")
                }
                for line in code where line.contains(command) {
                    Issue.record("\(folder)/\(path) names a command: \(line)")
                }
            }
        }
    }
}
