import QR
import TenderTestSupport
import Testing

@Suite struct PNGTests {
    static func sampleImage(width: Int, height: Int, seed: UInt64) -> GreyImage {
        // Gradients, flat areas and noise, so every filter type wins somewhere.
        var random = SeededGenerator(seed: seed)
        var image = GreyImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] =
                    switch (y / 8) % 3 {
                    case 0: UInt8((x * 7 + y * 3) & 0xFF)
                    case 1: x < width / 2 ? 255 : 0
                    default: UInt8(truncatingIfNeeded: random.next())
                    }
            }
        }
        return image
    }

    @Test(arguments: [(1, 1), (3, 7), (17, 5), (640, 480)])
    func encodeThenDecodeIsIdentity(width: Int, height: Int) throws {
        let image = Self.sampleImage(width: width, height: height, seed: UInt64(width * height))
        #expect(try PNG.decode(PNG.encode(image)) == image)
    }

    @Test func qrImageRoundTripsAndScans() throws {
        let payload = Array("tender:0xabc?amount=5".utf8)
        let image = try QREncoder.encode(payload).rasterize()
        let decoded = try PNG.decode(PNG.encode(image))
        #expect(decoded == image)
        #expect(QRScanner().scan(decoded) == [payload])
    }

    @Test func writesSignatureAndGreyscaleHeader() {
        let png = PNG.encode(GreyImage(width: 2, height: 3))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: png[12..<16], as: UTF8.self) == "IHDR")
        #expect(pngForm(png) == (8, 0))
        #expect(String(decoding: png.suffix(8).prefix(4), as: UTF8.self) == "IEND")
    }

    @Test func truncatedFileIsRefused() throws {
        let png = PNG.encode(Self.sampleImage(width: 64, height: 64, seed: 1))
        for cut in [0, 4, 8, 20, 33, 40, png.count / 2, png.count - 13, png.count - 1] {
            let error = #expect(throws: QRError.self) { try PNG.decode(Array(png.prefix(cut))) }
            #expect(error?.kind == (cut == 0 ? .malformed : .truncated), "cut at \(cut)")
        }
    }

    @Test func badCRCIsRefused() throws {
        var png = PNG.encode(Self.sampleImage(width: 16, height: 16, seed: 2))
        png[45] ^= 0x01  // inside the IDAT data (it starts at byte 41)
        let error = #expect(throws: QRError.self) { try PNG.decode(png) }
        #expect(error?.kind == .badChecksum)
        #expect(error?.message.contains("IDAT") == true)
    }

    @Test func absurdDimensionsAreRefusedBeforeAllocating() throws {
        // A valid 1×1 file whose IHDR is rewritten to 100,000 × 100,000 with a correct CRC.
        let png = PNG.encode(GreyImage(width: 1, height: 1))
        let huge = withHeader(png, width: 100_000, height: 100_000)
        let error = #expect(throws: QRError.self) { try PNG.decode(huge) }
        #expect(error?.kind == .imageTooLarge)
        #expect(error?.message.contains("100000×100000") == true)

        let wide = #expect(throws: QRError.self) {
            try PNG.decode(withHeader(png, width: 1 << 20, height: 1))
        }
        #expect(wide?.kind == .imageTooLarge)

        let small = #expect(throws: QRError.self) {
            try PNG.decode(PNG.encode(GreyImage(width: 10, height: 10)), maxPixels: 99)
        }
        #expect(small?.kind == .imageTooLarge)
    }

    @Test func dataLongerOrShorterThanDimensionsIsRefused() throws {
        let png = PNG.encode(GreyImage(width: 8, height: 8))
        // Claims more rows than the data holds.
        let taller = #expect(throws: QRError.self) {
            try PNG.decode(withHeader(png, width: 8, height: 9))
        }
        #expect(taller?.kind == .truncated)
        // Claims fewer rows than the data holds.
        let shorter = #expect(throws: QRError.self) {
            try PNG.decode(withHeader(png, width: 8, height: 7))
        }
        #expect(shorter?.kind == .malformed)
    }

    @Test func interlacedIsRefusedClearly() throws {
        var png = PNG.encode(GreyImage(width: 4, height: 4))
        png[28] = 1  // interlace method
        fixCRC(&png, chunkAt: 8)
        let error = #expect(throws: QRError.self) { try PNG.decode(png) }
        #expect(error?.kind == .unsupported)
        #expect(error?.message.contains("interlaced") == true)
    }

    @Test func notAPNGIsRefused() {
        let error = #expect(throws: QRError.self) { try PNG.decode(Array("GIF89a....".utf8)) }
        #expect(error?.kind == .malformed)
    }

    @Test func randomBytesAfterTheSignatureNeverCrash() {
        var random = SeededGenerator(seed: 99)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for length in stride(from: 0, to: 400, by: 7) {
            #expect(throws: QRError.self) { try PNG.decode(signature + random.bytes(length)) }
        }
    }

    /// Random corruption that still passes the CRCs reaches the inflater, the filters and the
    /// converters: every outcome must be an image or a `QRError`, never a crash.
    @Test func corruptedButCRCValidFilesNeverCrash() {
        var random = SeededGenerator(seed: 1234)
        let original = PNG.encode(Self.sampleImage(width: 37, height: 21, seed: 4))
        var failures = 0
        for _ in 0..<400 {
            var png = original
            for _ in 0...(random.next() % 3) {
                let index = 16 + Int(random.next() % UInt64(png.count - 16 - 12))
                png[index] = UInt8(truncatingIfNeeded: random.next())
            }
            fixAllCRCs(&png)
            do {
                _ = try PNG.decode(png)
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)
    }

    /// Rewrites IHDR's width and height and recomputes its CRC.
    private func withHeader(_ png: [UInt8], width: UInt32, height: UInt32) -> [UInt8] {
        var copy = png
        for (i, value) in [width, height].enumerated() {
            for b in 0..<4 { copy[16 + 4 * i + b] = UInt8(value >> (24 - 8 * b) & 0xFF) }
        }
        fixCRC(&copy, chunkAt: 8)
        return copy
    }
}

/// Recomputes every chunk's CRC, stopping where lengths no longer make sense.
func fixAllCRCs(_ png: inout [UInt8]) {
    var offset = 8
    while offset + 12 <= png.count {
        let length =
            Int(png[offset]) << 24 | Int(png[offset + 1]) << 16
            | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
        guard offset + 12 + length <= png.count else { return }
        fixCRC(&png, chunkAt: offset)
        offset += 12 + length
    }
}

/// Recomputes the CRC of the chunk starting at `offset` (its length field), so tests can
/// edit a field and still reach the check they mean to exercise.
func fixCRC(_ png: inout [UInt8], chunkAt offset: Int) {
    let length =
        Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8
        | Int(png[offset + 3])
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in png[(offset + 4)..<(offset + 8 + length)] {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    crc ^= 0xFFFF_FFFF
    let end = offset + 8 + length
    for b in 0..<4 { png[end + b] = UInt8(crc >> (24 - 8 * b) & 0xFF) }
}
