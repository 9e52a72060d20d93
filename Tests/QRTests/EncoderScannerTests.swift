import QR
import TenderTestSupport
import Testing

@Suite struct EncoderScannerTests {
    @Test func zeroBytesSurviveBinaryMode() throws {
        let payload: [UInt8] = [0, 0, 0x74, 0, 0xFF, 0, 0x0A, 0x0D, 0]
        #expect(try scanRoundTrip(payload) == [payload])
    }

    @Test func allByteValuesSurvive() throws {
        let payload = (0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) }
        #expect(try scanRoundTrip(payload) == [payload])
    }

    /// Text that zbar would transcode (Latin-1/SJIS guesses) without ZBAR_CFG_BINARY.
    @Test func nonASCIITextComesBackByteForByte() throws {
        let text = "tender:pay?memo=café ¥ €5 — 支払い"
        let matrix = try QREncoder.encode(text: text)
        #expect(QRScanner().scan(matrix.rasterize()) == [Array(text.utf8)])
    }

    /// Every size from 1 to 64 bytes, then a stride through every version up to the
    /// level-M capacity of 2,331 bytes.
    static let sizes = Array(1...64) + Array(stride(from: 97, to: 2331, by: 41)) + [2330, 2331]

    @Test(arguments: sizes)
    func binaryPayloadRoundTripsAtLevelM(size: Int) throws {
        var random = SeededGenerator(seed: UInt64(size))
        let payload = random.bytes(size)
        #expect(try scanRoundTrip(payload, scale: size > 1500 ? 3 : 4) == [payload])
    }

    @Test(arguments: QRErrorCorrection.allCases)
    func eachLevelHoldsItsCapacityAndRefusesOneMore(level: QRErrorCorrection) throws {
        var random = SeededGenerator(seed: 40)
        let full = random.bytes(level.binaryCapacity)
        let matrix = try QREncoder.encode(full, level: level)
        #expect(matrix.size == 177)  // version 40
        #expect(QRScanner().scan(matrix.rasterize(scale: 3)) == [full])

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

    @Test func twoCodesInOneFrameAreBothReturned() throws {
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
        let found = Set(QRScanner().scan(frame).map { String(decoding: $0, as: UTF8.self) })
        #expect(found == ["first code", "second code"])
    }

    @Test func blankFrameScansToNothing() {
        #expect(QRScanner().scan(GreyImage(width: 640, height: 480)).isEmpty)
    }

    @Test func randomNoiseScansToNothing() {
        var random = SeededGenerator(seed: 7)
        let noise = GreyImage(width: 640, height: 480, pixels: random.bytes(640 * 480))
        #expect(QRScanner().scan(noise).isEmpty)
    }

    /// A pattern with strong edges that is not a QR code: a checkerboard with bars.
    @Test func nonQRImageScansToNothing() {
        var image = GreyImage(width: 320, height: 240)
        for y in 0..<240 {
            for x in 0..<320 where (x / 16 + y / 16) % 2 == 0 || x % 40 < 3 { image[x, y] = 0 }
        }
        #expect(QRScanner().scan(image).isEmpty)
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
