/// A span of seconds as a person reads it next to a date: `45 s`, `12 min`, `5 h`, `3 days`.
/// Whole units, rounded down, so "in 59 min" is never shown for what is 59 min 59 s away.
enum RelativeTime {
    static func span(_ seconds: UInt64) -> String {
        switch seconds {
        case ..<120: "\(seconds) s"
        case ..<(120 * 60): "\(seconds / 60) min"
        case ..<(48 * 3600): "\(seconds / 3600) h"
        default: "\(seconds / 86_400) days"
        }
    }
}
