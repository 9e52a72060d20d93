import Foundation

/// Timing helpers: every figure is printed with its unit, and every loop checks its result
/// (a benchmark that verifies nothing measures nothing).
enum Measure {
    /// Runs `body` `count` times and returns operations per second.
    static func rate(count: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<count { try body(index) }
        let elapsed = clock.now - start
        return Double(count) / seconds(elapsed)
    }

    /// Times each call separately.
    static func samples(count: Int, _ body: (Int) throws -> Void) rethrows -> [Double] {
        let clock = ContinuousClock()
        var result: [Double] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let start = clock.now
            try body(index)
            result.append(seconds(since: start))
        }
        return result
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Seconds from `start` to now.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        seconds(ContinuousClock.now - start)
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return sorted[max(0, index)]
    }

    static func report(_ name: String, _ value: Double, _ unit: String) {
        let text = value >= 100 ? String(format: "%.0f", value) : String(format: "%.3f", value)
        print("\(name.padding(toLength: 56, withPad: " ", startingAt: 0)) \(text) \(unit)")
    }

    /// Reports latencies (`samples` in seconds) in milliseconds, one line per percentile:
    /// "`name` p50", "`name` p99".
    static func reportPercentiles(
        _ name: String, _ samples: [Double], _ percentiles: [Int] = [50, 99]
    ) {
        for percent in percentiles {
            report("\(name) p\(percent)", percentile(samples, Double(percent) / 100) * 1000, "ms")
        }
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
