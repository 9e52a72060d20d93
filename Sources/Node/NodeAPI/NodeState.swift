import NodeKit

/// The node's live state as its services report it, read by `/api/status` and `/metrics`.
public actor NodeState {
    public struct SyncStatus: Sendable, Codable, Equatable {
        /// Passes finished, and when the last one finished (Unix seconds; nil: none yet).
        public var passes = 0
        public var lastPassAt: UInt64?
        /// The last pass's failure (nil when it settled or had nothing to do).
        public var lastError: String?
        /// When the last pass that did not fail finished (nil: none yet).
        public var lastSuccessAt: UInt64?
        /// Passes that failed (the chain unreachable, an RPC error, …).
        public var failures = 0
        /// Redeem transactions still open after the last pass.
        public var openTransactions = 0
        /// Coins the last pass left waiting: worth less than the gas of redeeming them then.
        public var waitingForGas = 0
        public var enabled = false
    }

    public let startedAt: UInt64
    public private(set) var sync = SyncStatus()
    /// What each payee service (Bluetooth, camera) is doing, by name.
    public private(set) var services: [String: ServiceStatus] = [:]

    public init(startedAt: UInt64) { self.startedAt = startedAt }

    /// Seconds from `start` to `now`; 0 when the clock stepped back.
    static func elapsed(from start: UInt64, to now: UInt64) -> UInt64 {
        now >= start ? now - start : 0
    }

    public func syncEnabled(_ enabled: Bool) { sync.enabled = enabled }

    public func syncPassed(at now: UInt64, open: Int, error: String?, waitingForGas: Int = 0) {
        sync.passes += 1
        sync.lastPassAt = now
        sync.openTransactions = open
        sync.waitingForGas = waitingForGas
        sync.lastError = error
        if error == nil { sync.lastSuccessAt = now } else { sync.failures += 1 }
    }

    public func service(_ name: String, is status: ServiceStatus) { services[name] = status }
}

/// Where a payee service stands, and in what words (`/api/status` shows the sentence).
public enum ServiceStatus: Sendable, Equatable, CustomStringConvertible {
    /// Starting: what it is doing first ("looking for an adapter", "opening /dev/video0").
    case starting(String)
    /// Waiting for `thing` it needs (an adapter, the camera): why it is not there.
    case waiting(for: String, String)
    /// Taking payments: where ("ready on hci0 (…)", "scanning /dev/video0").
    case serving(String)
    /// Stopped for good: why, when it failed.
    case stopped(String?)

    public var description: String {
        switch self {
        case .starting(let what), .serving(let what): what
        case .waiting(let thing, let problem): "waiting for \(thing): \(problem)"
        case .stopped(let reason?): "stopped: \(reason)"
        case .stopped(nil): "stopped"
        }
    }
}
