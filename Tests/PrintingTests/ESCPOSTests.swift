import QR
import Testing

@testable import Printing

struct ESCPOSTests {
    // MARK: Byte layouts

    @Test func nativeQRLayout() {
        let bytes = ESCPOS.nativeQR(payload: Array("abc".utf8), moduleSize: 6, level: .medium)
        let expected: [UInt8] =
            [0x1D, 0x28, 0x6B, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00]  // 165: model 2
            + [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43, 0x06]  // 167: 6 dots
            + [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x45, 0x31]  // 169: level M
            + [0x1D, 0x28, 0x6B, 0x06, 0x00, 0x31, 0x50, 0x30, 0x61, 0x62, 0x63]  // 180: store
            + [0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x51, 0x30]  // 181: print
        #expect(bytes == expected)
    }

    @Test func nativeQRLengthUsesBothBytes() {
        let payload = [UInt8](repeating: 0x41, count: 1_000)
        let bytes = ESCPOS.nativeQR(payload: payload, moduleSize: 3, level: .low)
        // Store is the fourth function: after 9 + 8 + 8 bytes; pL pH = 1,003 = 0x03EB.
        #expect(Array(bytes[25..<33]) == [0x1D, 0x28, 0x6B, 0xEB, 0x03, 0x31, 0x50, 0x30])
        #expect(Array(bytes[22..<25]) == [0x31, 0x45, 0x30])
    }

    @Test func rasterLayout() {
        // 10 × 2: row 0 black at x = 0, 7, 8, 9 (grey 127 is black, 128 white); row 1 all white.
        var image = GreyImage(width: 10, height: 2)
        for x in [0, 7, 8, 9] { image[x, 0] = x == 9 ? 127 : 0 }
        image[1, 0] = 128
        let bytes = ESCPOS.raster(image)
        #expect(
            bytes == [
                0x1D, 0x76, 0x30, 0x00, 0x02, 0x00, 0x02, 0x00, 0b1000_0001, 0b1100_0000, 0x00,
                0x00,
            ])
    }

    @Test func tallImagesGoOutInBands() throws {
        let image = GreyImage(
            width: 16, height: 5_000,
            pixels: (0..<(16 * 5_000)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let bytes = ESCPOS.raster(image)
        // Headers at the start of each band: 2,303 + 2,303 + 394 rows of 2 bytes.
        #expect(Array(bytes[0..<8]) == [0x1D, 0x76, 0x30, 0, 2, 0, 0xFF, 0x08])
        let second = 8 + 2_303 * 2
        #expect(Array(bytes[second..<(second + 8)]) == [0x1D, 0x76, 0x30, 0, 2, 0, 0xFF, 0x08])
        let third = 2 * second
        #expect(Array(bytes[third..<(third + 8)]) == [0x1D, 0x76, 0x30, 0, 2, 0, 0x8A, 0x01])
        #expect(bytes.count == 3 * 8 + 5_000 * 2)
        // …and read back as one image.
        let images = try ESCPOS.renderRaster(bytes)
        #expect(images == [Self.thresholded(image)])
    }

    // MARK: renderRaster

    @Test func rasterRoundTrips() throws {
        var random = SystemRandomNumberGenerator()
        for width in [8, 13, 384] {
            let pixels = (0..<(width * 37)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let image = GreyImage(width: width, height: 37, pixels: pixels)
            let images = try ESCPOS.renderRaster(ESCPOS.raster(image))
            let expected = Self.thresholded(image)
            #expect(images.count == 1)
            // Widths are padded to whole bytes with white.
            #expect(images[0].width == (width + 7) / 8 * 8)
            #expect(Self.crop(images[0], width: width) == expected)
        }
    }

    @Test func separateImagesStaySeparate() throws {
        let a = GreyImage(width: 8, height: 2, fill: 0)
        let b = GreyImage(width: 16, height: 3, fill: 0)
        let stream = ESCPOS.raster(a) + [0x0A] + ESCPOS.raster(a) + ESCPOS.raster(b)
        let images = try ESCPOS.renderRaster(stream)
        #expect(images.map(\.width) == [8, 8, 16])
        #expect(images.map(\.height) == [2, 2, 3])
    }

    @Test func doubleWidthAndHeightModesAreEnlarged() throws {
        let block: [UInt8] = [0x1D, 0x76, 0x30, 0x03, 0x01, 0x00, 0x01, 0x00, 0b1000_0000]
        let images = try ESCPOS.renderRaster(block)
        #expect(images.count == 1)
        #expect(images[0].width == 16 && images[0].height == 2)
        #expect(images[0][0, 0] == 0 && images[0][1, 1] == 0 && images[0][2, 0] == 255)
    }

    @Test(
        arguments: [
            ([0x1D, 0x76, 0x30, 0x00, 0x01], "truncated"),  // header cut short
            ([0x1D, 0x76, 0x30, 0x00, 0x02, 0x00, 0x02, 0x00, 0xFF], "announces 4 data bytes"),
            ([0x1D, 0x76, 0x30, 0x00, 0x00, 0x00, 0x02, 0x00], "0 bytes × 2 rows"),
            ([0x1D, 0x76, 0x30, 0x07, 0x01, 0x00, 0x01, 0x00, 0x00], "mode 7"),
            ([0x1D, 0x76, 0x31], "unknown command GS v 0x31"),
            ([0x1B, 0x40, 0x1B, 0x7E], "unknown command ESC 0x7E at offset 2"),
            ([0x1D, 0x28, 0x6B, 0x10, 0x00, 0x31], "GS ( k data at offset 0 is truncated"),
            ([0x41, 0x07], "control byte 0x07 at offset 1"),
            ([0x1B], "ESC at offset 0 is truncated"),
        ] as [([UInt8], String)])
    func malformedStreamsAreRejected(stream: [UInt8], message: String) {
        #expect {
            try ESCPOS.renderRaster(stream)
        } throws: { error in
            guard let error = error as? PrintingError else { return false }
            return error.kind == .malformedStream && error.message.contains(message)
        }
    }

    // MARK: Jobs

    @Test func nativeJobWhenTheProfileAllowsIt() throws {
        let matrix = try QREncoder.encode(Payloads.request, level: .medium)
        let job = ESCPOS.job(
            payload: Payloads.request, matrix: matrix, profile: .epson80mm, title: "Olive Stall",
            lines: ["4.50 EUR", "thank you"])
        let scale = 576 / (matrix.size + 8)
        let native = ESCPOS.nativeQR(payload: Payloads.request, moduleSize: scale, level: .medium)
        #expect(Array(job.prefix(5)) == [0x1B, 0x40, 0x1B, 0x61, 0x01])
        #expect(job.firstRange(of: native) != nil)
        #expect(job.firstRange(of: Array("Olive Stall\n".utf8)) != nil)
        #expect(job.firstRange(of: Array("4.50 EUR\nthank you\n".utf8)) != nil)
        #expect(Array(job.suffix(6)) == [0x1B, 0x64, 0x06, 0x1D, 0x56, 0x00])
        #expect(try ESCPOS.renderRaster(job).isEmpty)
    }

    @Test(arguments: [PrinterProfile.generic58mm, .generic80mm])
    func rasterJobScansBack(profile: PrinterProfile) throws {
        let matrix = try QREncoder.encode(Payloads.request, level: .medium)
        let job = ESCPOS.job(
            payload: Payloads.request, matrix: matrix, profile: profile, title: "Olive Stall",
            lines: ["4.50 EUR"])
        #expect(job.firstRange(of: [0x1D, 0x28, 0x6B]) == nil)
        let images = try ESCPOS.renderRaster(job)
        #expect(images.count == 1)
        #expect(images[0].width == profile.dotsPerLine)
        #expect(scanned(images[0]) == [Payloads.request])
        #expect(job.suffix(3) == (profile.hasCutter ? [0x1D, 0x56, 0x00] : [0x1B, 0x64, 0x06]))
    }

    @Test func payloadTooLargeForTheNativeEncoderFallsBackToRaster() throws {
        let small = PrinterProfile(
            name: "small native", dotsPerLine: 384, supportsNativeQR: true, maxNativeQRBytes: 100)
        let matrix = try QREncoder.encode(Payloads.binary, level: .medium)
        #expect(!ESCPOS.fitsNativeQR(Payloads.binary, profile: small, level: .medium))
        #expect(ESCPOS.fitsNativeQR(Payloads.binary, profile: .epson80mm, level: .medium))
        let job = ESCPOS.job(
            payload: Payloads.binary, matrix: matrix, profile: small, title: "", lines: [])
        let images = try ESCPOS.renderRaster(job)
        #expect(images.count == 1)
        #expect(scanned(images[0]) == [Payloads.binary])
    }

    @Test func textIsPrintableASCIIOnly() throws {
        let matrix = try QREncoder.encode(Payloads.request, level: .medium)
        // An ESC in a stall name must not become a command.
        let job = ESCPOS.job(
            payload: Payloads.request, matrix: matrix, profile: .generic58mm,
            title: "Caf\u{E9}\u{1B}@",
            lines: ["\u{20AC}4.50"])
        #expect(job.firstRange(of: Array("Caf??@\n".utf8)) != nil)
        #expect(job.firstRange(of: Array("?4.50\n".utf8)) != nil)
        #expect(try ESCPOS.renderRaster(job).count == 1)
    }

    // MARK: Helpers

    static func thresholded(_ image: GreyImage) -> GreyImage {
        GreyImage(
            width: image.width, height: image.height,
            pixels: image.pixels.map { $0 < 128 ? 0 : 255 })
    }

    static func crop(_ image: GreyImage, width: Int) -> GreyImage {
        var pixels: [UInt8] = []
        for y in 0..<image.height {
            pixels += image.pixels[(y * image.width)..<(y * image.width + width)]
        }
        return GreyImage(width: width, height: image.height, pixels: pixels)
    }
}
