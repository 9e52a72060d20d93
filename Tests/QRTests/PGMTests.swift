import QR
import Testing

@Suite struct PGMTests {
    @Test func binaryRoundTrip() throws {
        let image = PNGTests.sampleImage(width: 33, height: 17, seed: 5)
        let pgm = PGM.encode(image)
        #expect(pgm.starts(with: Array("P5\n33 17\n255\n".utf8)))
        #expect(try PGM.decode(pgm) == image)
    }

    @Test func asciiWithCommentsAndMaxval() throws {
        let text = "P2\n# made by hand\n3 2\n# maxval next\n15\n0 15 7\n 15  0\n3\n"
        let image = try PGM.decode(Array(text.utf8))
        #expect(image == GreyImage(width: 3, height: 2, pixels: [0, 255, 119, 255, 0, 51]))
    }

    @Test func sixteenBitBinaryIsScaled() throws {
        let bytes = Array("P5 2 1 65535\n".utf8) + [0xFF, 0xFF, 0x00, 0x00]
        #expect(try PGM.decode(bytes) == GreyImage(width: 2, height: 1, pixels: [255, 0]))
    }

    @Test func badInputIsRefused() {
        let cases: [(String, QRError.Kind)] = [
            ("P6\n1 1\n255\n", .malformed),
            ("P5\n4 4\n255\nabc", .truncated),
            ("P2\n2 1\n255\n1", .truncated),
            ("P2\n1 1\n10\n11\n", .malformed),
            ("P5\n100000 100000\n255\n", .imageTooLarge),
            ("P5\n0 1\n255\n", .malformed),
        ]
        for (text, kind) in cases {
            let error = #expect(throws: QRError.self) { try PGM.decode(Array(text.utf8)) }
            #expect(error?.kind == kind, "\(text.debugDescription)")
        }
    }
}
