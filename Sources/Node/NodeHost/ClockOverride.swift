import Foundation
import NodeKit

extension ProcessInfo {
    /// `TENDER_NOW` (Unix seconds) pins the clock: for tests of expiry, never for production.
    public var tenderClock: any WallClock {
        if let pinned = environment["TENDER_NOW"], let seconds = UInt64(pinned) {
            return FixedClock(seconds)
        }
        return SystemClock()
    }
}
