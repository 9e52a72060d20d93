import Foundation
import QR
import TenderTestSupport
import Testing

/// The decode-time figures quoted for this module, reproducible on demand:
/// `QR_TIMING=1 swift test --filter ScanTimingTests` (use `taskset -c 0` for one core).
/// The time is zbar's, which is C, so a debug build of the Swift side barely changes it.
/// Off by default: timings on a shared machine are not pass/fail material.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["QR_TIMING"] != nil))
struct ScanTimingTests {
    /// A code centred in a 640×480 frame, like a webcam frame.
    static func frame(payloadSize: Int, scale: Int) throws -> (GreyImage, [UInt8]) {
        var random = SeededGenerator(seed: UInt64(payloadSize))
        let payload = random.bytes(payloadSize)
        let code = try QREncoder.encode(payload).rasterize(scale: scale, border: 4)
        var frame = GreyImage(width: 640, height: 480)
        let (ox, oy) = ((640 - code.width) / 2, (480 - code.height) / 2)
        for y in 0..<code.height {
            for x in 0..<code.width { frame[ox + x, oy + y] = code[x, y] }
        }
        return (frame, payload)
    }

    /// Min and median milliseconds of `body`, which must return true (the right answer).
    static func measure(_ name: String, _ body: () -> Bool) {
        var times: [Double] = []
        for _ in 0..<100 {
            let start = DispatchTime.now().uptimeNanoseconds
            let ok = body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            #expect(ok, "\(name): wrong result")
        }
        times.sort()
        print(String(format: "%@: min %.2f ms, median %.2f ms", name, times[0], times[50]))
    }

    @Test func decodeTimes() throws {
        let scanner = QRScanner()
        let (small, smallPayload) = try Self.frame(payloadSize: 200, scale: 4)
        Self.measure("640×480, 200-byte code at 4 px") { scanner.scan(small) == [smallPayload] }
        let (large, largePayload) = try Self.frame(payloadSize: 2000, scale: 2)
        Self.measure("640×480, 2,000-byte code at 2 px") { scanner.scan(large) == [largePayload] }
        let empty = GreyImage(width: 640, height: 480)
        Self.measure("640×480, empty") { scanner.scan(empty).isEmpty }
    }
}
