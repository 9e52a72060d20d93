import QR
import TenderTestSupport
import Testing

/// Each decoder the scanning pipeline uses, on the same real pixels.
@Suite struct EncoderScannerTests {
    @Test(arguments: Decoder.allCases)
    func zeroBytesSurviveBinaryMode(decoder: Decoder) throws {
        let payload: [UInt8] = [0, 0, 0x74, 0, 0xFF, 0, 0x0A, 0x0D, 0]
        #expect(try scanRoundTrip(payload, decoder: decoder) == [payload])
    }

    @Test(arguments: Decoder.allCases)
    func allByteValuesSurvive(decoder: Decoder) throws {
        let payload = (0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) }
        #expect(try scanRoundTrip(payload, decoder: decoder) == [payload])
    }

    /// Text that zbar would transcode (Latin-1/SJIS guesses) without ZBAR_CFG_BINARY, and
    /// zxing through `text()` rather than `bytes()`.
    @Test(arguments: Decoder.allCases)
    func nonASCIITextComesBackByteForByte(decoder: Decoder) throws {
        let text = "tender:pay?memo=café ¥ €5 — 支払い"
        let matrix = try QREncoder.encode(text: text)
        #expect(decoder.scan(matrix.rasterize()) == [Array(text.utf8)])
    }

    /// Every size from 1 to 64 bytes, then a stride through every version up to the
    /// level-M capacity of 2,331 bytes.
    static let sizes = Array(1...64) + Array(stride(from: 97, to: 2331, by: 41)) + [2330, 2331]

    @Test(arguments: sizes, Decoder.allCases)
    func binaryPayloadRoundTripsAtLevelM(size: Int, decoder: Decoder) throws {
        var random = SeededGenerator(seed: UInt64(size))
        let payload = random.bytes(size)
        let scale = size > 1500 ? 3 : 4
        #expect(try scanRoundTrip(payload, scale: scale, decoder: decoder) == [payload])
    }

    @Test(arguments: QRErrorCorrection.allCases)
    func eachLevelHoldsItsCapacityAndRefusesOneMore(level: QRErrorCorrection) throws {
        var random = SeededGenerator(seed: 40)
        let full = random.bytes(level.binaryCapacity)
        let matrix = try QREncoder.encode(full, level: level)
        #expect(matrix.size == 177)  // version 40
        for decoder in Decoder.allCases {
            #expect(decoder.scan(matrix.rasterize(scale: 3)) == [full], "\(decoder)")
        }

        let error = #expect(throws: QRError.self) {
            try QREncoder.encode(full + [0], level: level)
        }
        #expect(error?.kind == .payloadTooLarge)
        #expect(error?.message.contains("\(level.binaryCapacity + 1) bytes") == true)
        #expect(error?.message.contains("\(level.binaryCapacity)-byte") == true)
    }

    @Test func capacitiesMatchTheStandard() {
        #expect(QRErrorCorrection.allCases.map(\.binaryCapacity) == [2953, 2331, 1663, 1273])
    }

    @Test func emptyPayloadIsRefusedClearly() {
        let error = #expect(throws: QRError.self) { try QREncoder.encode([]) }
        #expect(error?.kind == .encoderFailed)
        #expect(error?.message.contains("empty") == true)
    }

    @Test func smallPayloadIsVersionOne() throws {
        #expect(try QREncoder.encode([1, 2, 3]).size == 21)
    }

    @Test(arguments: Decoder.allCases)
    func twoCodesInOneFrameAreBothReturned(decoder: Decoder) throws {
        let first = try QREncoder.encode(text: "first code")
        let second = try QREncoder.encode(text: "second code")
        let left = first.rasterize(scale: 4)
        let right = second.rasterize(scale: 4)
        let height = max(left.height, right.height)
        var frame = GreyImage(width: left.width + right.width, height: height)
        for y in 0..<left.height {
            for x in 0..<left.width { frame[x, y] = left[x, y] }
        }
        for y in 0..<right.height {
            for x in 0..<right.width { frame[left.width + x, y] = right[x, y] }
        }
        let found = Set(decoder.scan(frame).map { String(decoding: $0, as: UTF8.self) })
        #expect(found == ["first code", "second code"])
    }

    @Test(arguments: Decoder.allCases)
    func blankFrameScansToNothing(decoder: Decoder) {
        #expect(decoder.scan(GreyImage(width: 640, height: 480)).isEmpty)
    }

    @Test(arguments: Decoder.allCases)
    func randomNoiseScansToNothing(decoder: Decoder) {
        var random = SeededGenerator(seed: 7)
        let noise = GreyImage(width: 640, height: 480, pixels: random.bytes(640 * 480))
        #expect(decoder.scan(noise).isEmpty)
    }

    /// A pattern with strong edges that is not a QR code: a checkerboard with bars.
    @Test(arguments: Decoder.allCases)
    func nonQRImageScansToNothing(decoder: Decoder) {
        var image = GreyImage(width: 320, height: 240)
        for y in 0..<240 {
            for x in 0..<320 where (x / 16 + y / 16) % 2 == 0 || x % 40 < 3 { image[x, y] = 0 }
        }
        #expect(decoder.scan(image).isEmpty)
    }

    /// A stranger's screen in view: a code with blocks of modules flipped, cut short at any
    /// row, or drowned in noise. Every decoder comes back (no crash, no hang) with nothing or
    /// the code's own payload, never other bytes.
    @Test(arguments: Decoder.allCases)
    func damagedCodesGiveNothingOrTheirOwnPayload(decoder: Decoder) throws {
        var random = SeededGenerator(seed: 27)
        let payload = random.bytes(300)
        let clean = try QREncoder.encode(payload).rasterize(scale: 3, border: 4)
        var read = 0
        for trial in 0..<300 {
            var image = clean
            for _ in 0..<(1 + trial % 12) {
                let (x, y) = (
                    Int(random.next() % UInt64(image.width - 6)),
                    Int(random.next() % UInt64(image.height - 6))
                )
                for dy in 0..<6 {
                    for dx in 0..<6 { image[x + dx, y + dy] = 255 &- image[x + dx, y + dy] }
                }
            }
            if trial % 3 == 1 {
                let rows = 1 + Int(random.next() % UInt64(image.height - 1))
                image = GreyImage(
                    width: image.width, height: rows,
                    pixels: Array(image.pixels.prefix(rows * image.width)))
            }
            if trial % 5 == 2 {
                image.pixels = image.pixels.map {
                    $0 ^ UInt8(truncatingIfNeeded: random.next() & 0xC0)
                }
            }
            let found = decoder.scan(image)
            #expect(found.allSatisfy { $0 == payload }, "trial \(trial): other bytes came back")
            if !found.isEmpty { read += 1 }
        }
        #expect(read > 0, "not one damaged code was read: the damage proves nothing")
    }

    /// One pixel short of its size (its pixels are a var): zxing reads nothing rather than
    /// past the end.
    @Test func zxingReadsNothingFromAnImageShorterThanItsSize() throws {
        var image = try QREncoder.encode(text: "short").rasterize()
        #expect(ZXingScanner().scan(image) == [Array("short".utf8)])
        image.pixels.removeLast()
        #expect(ZXingScanner().scan(image).isEmpty)
    }

    /// zxing keeps no state between calls: threads read at once, each its own payloads.
    @Test func zxingReadsOnManyThreadsAtOnce() async throws {
        let images = try (0..<8).map { index in
            (
                Array("thread \(index)".utf8),
                try QREncoder.encode(text: "thread \(index)").rasterize()
            )
        }
        let scanner = ZXingScanner()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for (payload, image) in images {
                group.addTask { (0..<20).allSatisfy { _ in scanner.scan(image) == [payload] } }
            }
            for try await allRead in group { #expect(allRead) }
        }
    }

    @Test func oneScannerServesManyFrames() throws {
        let scanner = QRScanner()
        for i in 0..<20 {
            let payload = Array("frame \(i)".utf8)
            let matrix = try QREncoder.encode(payload)
            #expect(scanner.scan(matrix.rasterize()) == [payload])
        }
    }
}
