import TenderTestSupport
import Testing

@testable import Fountain

/// How many frames a receiver must see at 20 % loss, joining at a random point of the loop.
/// Prints its figures; asserts only that every trial decodes (no timing assertions).
struct SimulationTests {
    struct Result {
        var frameCount: Int
        var meanShown: Double
        var p95Shown: Int
        var maxShown: Int
    }

    /// `trials` messages of `frameCount` fragments of `fragmentLength` bytes (the fountain's
    /// choices depend only on the fragment count and the message checksum, so this stands for
    /// UR and binary frames alike).
    static func simulate(
        frameCount: Int, fragmentLength: Int = 64, loss: Double = 0.2, trials: Int, seed: UInt64
    ) throws -> Result {
        var rng = SeededGenerator(seed: seed)
        var shownCounts: [Int] = []
        for _ in 0..<trials {
            let message = (0..<(frameCount * fragmentLength)).map { _ in
                UInt8.random(in: 0...255, using: &rng)
            }
            var encoder = try FrameEncoder(message: message, fragmentLength: fragmentLength)
            // Join anywhere in the first three loops of the animation.
            for _ in 0..<Int.random(in: 0..<(3 * frameCount), using: &rng) {
                _ = encoder.nextFrame()
            }
            var decoder = FrameDecoder()
            var shown = 0
            while decoder.message == nil && shown < 100 * frameCount + 100 {
                let frame = encoder.nextFrame()
                shown += 1
                if Double.random(in: 0..<1, using: &rng) < loss { continue }
                _ = try decoder.receive(frame)
            }
            #expect(decoder.message == message)
            shownCounts.append(shown)
        }
        shownCounts.sort()
        return Result(
            frameCount: frameCount,
            meanShown: Double(shownCounts.reduce(0, +)) / Double(trials),
            p95Shown: shownCounts[min(trials - 1, trials * 95 / 100)],
            maxShown: shownCounts.last ?? 0)
    }

    static func format(_ value: Double, decimals: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let have = text.distance(from: dot, to: text.endIndex) - 1
            if have < decimals { text += String(repeating: "0", count: decimals - have) }
        }
        return text
    }

    @Test func framesNeededAtTwentyPercentLoss() throws {
        print(
            "fountain simulation, 20% loss, random join point, 400 trials each (100 from 50 frames)"
        )
        print("frames of message | mean frames shown | ratio | p95 | max")
        for count in [1, 2, 3, 5, 6, 8, 10, 20, 50, 100] {
            let result = try Self.simulate(
                frameCount: count, trials: count >= 50 ? 100 : 400, seed: UInt64(count))
            print(
                "\(count) | \(Self.format(result.meanShown)) | \(Self.format(result.meanShown / Double(count))) | \(result.p95Shown) | \(result.maxShown)"
            )
        }
    }

    /// Longest CBOR fragment whose UR part, upper-cased, fits `characters` (QR alphanumeric
    /// mode), for part numbers up to five digits.
    static func urFragmentLength(for ur: UR, characters: Int) -> Int {
        var length = characters / 2
        while length > 10 {
            var encoder = UREncoder(ur: ur, maxFragmentLength: length, firstSeqNum: 99_999)
            if encoder.nextPart().count <= characters { return length }
            length -= 1
        }
        return length
    }

    @Test func throughputTenKilobytes() throws {
        let message = makeMessage(10_000)
        let framesPerSecond = 10.0
        // Binary frames: one frame per level-M version-40 QR code (2,331 bytes).
        let frames = try FrameEncoder(message: message)
        let binary = try Self.simulate(
            frameCount: frames.frameCount, fragmentLength: frames.fragmentLength, trials: 300,
            seed: 1)
        // BC-UR: upper-case parts in alphanumeric mode, level M version 40 (3,391 characters).
        let ur = try UR(type: "bytes", cbor: cborByteString(message))
        let fragment = Self.urFragmentLength(for: ur, characters: 3391)
        let urEncoder = UREncoder(ur: ur, maxFragmentLength: fragment)
        let urResult = try Self.simulate(
            frameCount: urEncoder.seqLen, fragmentLength: urEncoder.fragmentLength, trials: 300,
            seed: 2)
        for (name, result, perFrame) in [
            ("binary frames", binary, frames.fragmentLength),
            ("BC-UR alphanumeric", urResult, urEncoder.fragmentLength),
        ] {
            let seconds = result.meanShown / framesPerSecond
            print(
                "\(name): \(result.frameCount) frames of \(perFrame) bytes, mean \(Self.format(result.meanShown)) shown (p95 \(result.p95Shown)) = \(Self.format(seconds)) s at 10 frames/s -> \(Int((Double(message.count) / seconds).rounded())) payload B/s"
            )
        }
        print("UR max fragment for 3,391 characters: \(fragment) bytes of CBOR")
        #expect(frames.frameCount == 5)
    }
}
