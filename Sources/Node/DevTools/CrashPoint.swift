import Foundation

/// Fault injection for the crash-safety tests: when `TENDER_CRASH_AT` names a point, the
/// process kills itself there with SIGKILL, exactly as a power cut or `kill -9` would.
/// Compiled in debug builds only (the tests' builds): a release build has no crash points.
public enum CrashPoint: String, Sendable {
    /// Payment recorded and coins reserved; not yet marked handed over.
    case payPrepared = "pay.prepared"
    /// Marked handed over; the file not yet written.
    case payHandedOver = "pay.handed-over"
    /// Payment accepted and receipt stored; the receipt not yet written (file) or sent (air).
    case receiveAccepted = "receive.accepted"
    /// Over the air: a payer's first session message in, nothing answered yet.
    case receiveConnected = "receive.connected"
    /// Over the air: a payment offered, not yet checked.
    case receiveOffered = "receive.offered"
    /// Sync: a redeem transaction recorded (its coins redeeming), not yet sent.
    case syncRecorded = "sync.recorded"
    /// Sync: a redeem transaction sent, its receipt not yet seen.
    case syncSent = "sync.sent"

    public func hit(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if TENDER_CRASH_POINTS
        if environment["TENDER_CRASH_AT"] == rawValue { kill(getpid(), SIGKILL) }
        #endif
    }
}
