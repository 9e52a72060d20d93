import Foundation
import Logging

/// The node's log lines, one per event on standard error (journald takes them from there),
/// every message and metadata value through the `Redactor` first. `text`:
/// `2026-11-24T21:00:00Z info tender.node: message key=value`; `json`: one object per line
/// with `time`, `level`, `label`, `message` and the metadata, for log shippers.
public struct NodeLogHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable { case text, json }

    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    let label: String
    let format: Format
    let redactor: Redactor
    let write: @Sendable (String) -> Void

    public init(
        label: String, level: Logger.Level, format: Format, redactor: Redactor,
        write: @escaping @Sendable (String) -> Void = NodeLogHandler.standardError
    ) {
        self.label = label
        self.logLevel = level
        self.format = format
        self.redactor = redactor
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let time = Date().formatted(.iso8601)
        let message = redactor.scrub("\(event.message)")
        let fields = merged.keys.sorted().map { ($0, redactor.scrub("\(merged[$0]!)")) }
        switch format {
        case .text:
            let pairs = fields.map { " \($0)=\(Self.quoted($1))" }.joined()
            write("\(time) \(event.level) \(label): \(message)\(pairs)\n")
        case .json:
            var object: [String: String] = [
                "time": time, "level": "\(event.level)", "label": label, "message": message,
            ]
            for (key, value) in fields where object[key] == nil { object[key] = value }
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
                ?? Data()
            write(String(decoding: data, as: UTF8.self) + "\n")
        }
    }

    static func quoted(_ value: String) -> String {
        value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" })
            ? "\"\(value.replacingOccurrences(of: "\"", with: "\\\""))\"" : value
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data(line.utf8))
    }
}
