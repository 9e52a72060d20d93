import TenderTestSupport
import Testing

@testable import Fountain

/// Both formats end to end: messages of 1…100,000 bytes, 20–50 % of frames lost, repeats
/// (immediate and of older frames), and a random starting point in the loop; seeded, so every
/// failure names a reproducible (size, seed).
struct RoundTripTests {
    static let sizes = [
        1, 2, 3, 29, 30, 31, 100, 255, 256, 1000, 2331, 4096, 10_000, 33_333, 65_536, 100_000,
    ]

    static func seeds(for size: Int) -> Range<UInt64> {
        size <= 4096 ? 0..<12 : 0..<4
    }

    /// Feeds `next()` through a lossy, repeating channel into `receive` until `done()`;
    /// returns the number of frames shown.
    static func transmit(
        frameCount: Int, rng: inout SeededGenerator, loss: Double,
        next: () -> [UInt8], receive: ([UInt8]) throws -> Void, done: () -> Bool
    ) rethrows -> Int {
        var shown = 0
        var recent: [[UInt8]] = []
        let cap = frameCount * 40 + 200
        while !done() && shown < cap {
            let frame = next()
            shown += 1
            if Double.random(in: 0..<1, using: &rng) < loss { continue }
            try receive(frame)
            recent.append(frame)
            if recent.count > 8 { recent.removeFirst() }
            let roll = Double.random(in: 0..<1, using: &rng)
            if roll < 0.1 {
                try receive(frame)
            } else if roll < 0.2, let old = recent.randomElement(using: &rng) {
                try receive(old)
            }
        }
        return shown
    }

    @Test(arguments: sizes) func binaryFrames(size: Int) throws {
        for seed in Self.seeds(for: size) {
            var rng = SeededGenerator(seed: UInt64(size) << 16 | seed)
            let message = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let targetCount = Int.random(in: 1...40, using: &rng)
            let fragmentLength = max(1, (size + targetCount - 1) / targetCount)
            var encoder = try FrameEncoder(message: message, fragmentLength: fragmentLength)
            for _ in 0..<Int.random(in: 0..<(3 * encoder.frameCount + 5), using: &rng) {
                _ = encoder.nextFrame()
            }
            let loss = Double.random(in: 0.2...0.5, using: &rng)
            var decoder = FrameDecoder()
            _ = try Self.transmit(
                frameCount: encoder.frameCount, rng: &rng, loss: loss,
                next: { encoder.nextFrame() }, receive: { _ = try decoder.receive($0) },
                done: { decoder.message != nil })
            #expect(decoder.message == message, "size \(size), seed \(seed)")
        }
    }

    @Test(arguments: sizes) func urParts(size: Int) throws {
        for seed in Self.seeds(for: size) {
            var rng = SeededGenerator(seed: UInt64(size) << 16 | seed | 0x8000)
            let message = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let ur = try UR(type: "bytes", cbor: cborByteString(message))
            let targetCount = Int.random(in: 1...40, using: &rng)
            let maxFragment = max(10, (ur.cbor.count + targetCount - 1) / targetCount)
            var encoder = UREncoder(
                ur: ur, maxFragmentLength: maxFragment,
                firstSeqNum: UInt32.random(in: 0..<1000, using: &rng))
            let loss = Double.random(in: 0.2...0.5, using: &rng)
            let upper = Bool.random(using: &rng)
            var decoder = URDecoder()
            _ = try Self.transmit(
                frameCount: encoder.seqLen, rng: &rng, loss: loss,
                next: {
                    let part = encoder.nextPart()
                    return Array((upper ? part.uppercased() : part).utf8)
                },
                receive: { _ = try decoder.receive(String(decoding: $0, as: UTF8.self)) },
                done: { decoder.result != nil })
            #expect(decoder.result == ur, "size \(size), seed \(seed)")
        }
    }

    @Test func manySeedsMidSize() throws {
        for seed in UInt64(0)..<150 {
            var rng = SeededGenerator(seed: 0xF0_0000 | seed)
            let size = Int.random(in: 1...3000, using: &rng)
            let message = (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var encoder = try FrameEncoder(
                message: message, fragmentLength: Int.random(in: 20...400, using: &rng))
            for _ in 0..<Int.random(in: 0..<200, using: &rng) { _ = encoder.nextFrame() }
            var decoder = FrameDecoder()
            _ = try Self.transmit(
                frameCount: encoder.frameCount, rng: &rng,
                loss: Double.random(in: 0.2...0.5, using: &rng),
                next: { encoder.nextFrame() }, receive: { _ = try decoder.receive($0) },
                done: { decoder.message != nil })
            #expect(decoder.message == message, "seed \(seed)")
        }
    }
}
