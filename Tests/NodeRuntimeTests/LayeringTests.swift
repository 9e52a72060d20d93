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
            "EVMSettlement", "AsyncHTTPClient", "NodeLogging",
        ]
        let files = try Self.sources("Sources/CLI")
        #expect(!files.isEmpty)
        for (path, text) in files {
            for module in forbidden {
                #expect(!text.contains("\nimport \(module)\n"), "\(path) imports \(module)")
            }
        }
    }

    @Test func theCoreAndTheStoreNameNoCommand() throws {
        for folder in ["Sources/Core", "Sources/Adapters/WalletStore", "Sources/Node/NodeKit"] {
            for (path, text) in try Self.sources(folder) {
                let code = text.split(separator: "\n").filter {
                    !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                }
                for line in code where line.contains("`tender ") {
                    Issue.record("\(folder)/\(path) names a command: \(line)")
                }
            }
        }
    }
}
