import Codecs
import Foundation
import Testing

/// A timing check to run by hand, not a test of speed (it asserts only correctness):
///
///     CODECS_TIMING=1 swift test -c release --scratch-path .build-codecs \
///         --filter Keccak256Timing
///
/// Prints the best-of-5 nanoseconds per keccak256 at input sizes met on the verify path.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["CODECS_TIMING"] != nil))
struct Keccak256Timing {
    @Test(arguments: [32, 36, 64, 136, 200])
    func nanosecondsPerHash(size: Int) {
        let iterations = 200_000
        var input = KeccakVectors.input(length: size)
        #expect(hex(Keccak256.hash(input)) == KeccakVectors.digests[size])
        var best = Duration.seconds(1000)
        var chained: [UInt8] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for _ in 0..<iterations {
                chained = Keccak256.hash(input)
                input[0] = chained[0]  // each hash depends on the last: nothing is hoisted
            }
            best = min(best, ContinuousClock.now - start)
        }
        #expect(chained.count == 32)
        let nanoseconds =
            Double(best.components.attoseconds) / 1e9 / Double(iterations)
            + Double(best.components.seconds) * 1e9 / Double(iterations)
        print("keccak256 \(size) B: \(String(format: "%.0f", nanoseconds)) ns per hash")
    }
}
