import QR
import TenderTestSupport
import Testing

@testable import Scanning

/// Frames zbar alone gives up on (heavy sensor noise) still read through the pipeline's
/// second look, and the second look never invents a code.
@Suite struct RescueTests {
    static let payload: [UInt8] = {
        var random = SeededGenerator(seed: 80)
        return random.bytes(120)
    }()

    /// The code at 4 px a module with uniform noise of ±`amplitude` grey levels, clipped.
    static func noisyFrame(amplitude: Int, seed: UInt64) throws -> GreyImage {
        var image = try QREncoder.encode(payload).rasterize(scale: 4, border: 4)
        var random = SeededGenerator(seed: seed)
        image.pixels = image.pixels.map { pixel in
            let noise = Int.random(in: -amplitude...amplitude, using: &random)
            return UInt8(clamping: Int(pixel) + noise)
        }
        return image
    }

    @Test func noisyFramesZbarMissesAreReadOnASecondLook() throws {
        var missedByZbar = 0
        var readOnSecondLook = 0
        var readByPipeline = 0
        for seed in UInt64(1)...8 {
            let frame = try Self.noisyFrame(amplitude: 100, seed: seed)
            if QRScanner().scan(frame).isEmpty { missedByZbar += 1 }
            let events = ScanPipeline(decoders: .zbar).process(frame)
            if events.contains(.payload(Self.payload)) { readOnSecondLook += 1 }
            if ScanPipeline().process(frame).contains(.payload(Self.payload)) {
                readByPipeline += 1
            }
            #expect(
                ScanPipeline(decoders: .zbar, rescue: false).process(frame).isEmpty
                    == QRScanner().scan(frame).isEmpty)
        }
        // ±100 grey levels: zbar alone misses (nearly) every frame; its second look reads them
        // all, and so does the pipeline with zxing first.
        #expect(missedByZbar >= 6)
        #expect(readOnSecondLook == 8)
        #expect(readByPipeline == 8)
    }

    @Test func halvingAveragesTwoByTwoBlocks() throws {
        let image = GreyImage(
            width: 4, height: 3,
            pixels: [
                0, 10, 200, 255,
                20, 30, 100, 150,
                9, 9, 9, 9,
            ])
        let half = try #require(image.halved())
        #expect(half.width == 2 && half.height == 1)
        #expect(half.pixels == [15, 176])  // (0+10+20+30)/4, (200+255+100+150)/4 rounded
        #expect(GreyImage(width: 1, height: 5).halved() == nil)
    }

    @Test func aSecondLookFindsNothingInNoise() throws {
        var random = SeededGenerator(seed: 7)
        let frame = GreyImage(width: 640, height: 480, pixels: random.bytes(640 * 480))
        for decoders in QRDecoders.allCases {
            #expect(ScanPipeline(decoders: decoders).process(frame).isEmpty)
            #expect(
                ScanPipeline(decoders: decoders).process(GreyImage(width: 640, height: 480)).isEmpty
            )
        }
    }
}
