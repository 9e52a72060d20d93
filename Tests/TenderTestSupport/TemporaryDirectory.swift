import Foundation

/// A fresh, empty folder under the system's temporary directory, one per test (names never
/// collide: a UUID is part of each). Every test target makes its scratch folders here.
public struct TemporaryDirectory: Sendable {
    public let url: URL
    public var path: String { url.path }

    /// Creates `<tmp>/<label>-<UUID>`.
    public init(_ label: String = "tender") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
