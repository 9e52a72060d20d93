import Logging
import NodeHost
import NodeLogging

/// The node process's log.
public enum NodeLog {
    /// Every log line of the process (Hummingbird's too) goes through the redactor, at the
    /// settings' level and format. Once per process (swift-log's bootstrap).
    public static func bootstrap(_ settings: NodeConfiguration, secrets: [String]) -> Logger {
        let redactor = Redactor(secrets: secrets)
        let level: Logger.Level =
            switch settings.logLevel {
            case .trace: .trace
            case .debug: .debug
            case .info: .info
            case .notice: .notice
            case .warning: .warning
            case .error: .error
            case .critical: .critical
            }
        let format: NodeLogHandler.Format =
            switch settings.logFormat {
            case .text: .text
            case .json: .json
            }
        LoggingSystem.bootstrap { label in
            NodeLogHandler(label: label, level: level, format: format, redactor: redactor)
        }
        return Logger(label: "tender.node")
    }
}
