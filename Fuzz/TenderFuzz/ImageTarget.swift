import QR

/// Image files `tender scan --image` reads: PNG (any standard colour type and depth) and
/// PGM (P5, P2). Decoded with a 1-megapixel limit, so the fuzzer may reach the limit
/// cheaply; the limit is a parameter, the code paths are the same as at the default.
enum ImageTarget {
    static let maxPixels = 1 << 20

    static let png = FuzzTarget(
        name: "png",
        summary: "PNG.decode (1 Mpx limit); accepted images survive PNG.encode and decode",
        run: checkPNG, oversizeCheck: pngOversize)

    static let pgm = FuzzTarget(
        name: "pgm",
        summary: "PGM.decode (1 Mpx limit); accepted images survive PGM.encode and decode",
        run: checkPGM, oversizeCheck: pgmOversize)

    /// An input starting with the PNG signature is decoded as it is, then with every chunk
    /// CRC repaired. Any other input describes a PNG that `PNGBuilder` writes with valid
    /// checksums, so mutations reach the filters and the colour conversion.
    static func checkPNG(_ bytes: [UInt8]) {
        if bytes.starts(with: PNGBuilder.signature) {
            decodePNG(bytes)
            let repaired = PNGBuilder.repairingChunkCRCs(bytes)
            if repaired != bytes { decodePNG(repaired) }
        } else {
            var reader = ByteReader(bytes[...])
            decodePNG(PNGBuilder.build(&reader))
        }
    }

    private static func decodePNG(_ bytes: [UInt8]) {
        guard let image = try? PNG.decode(bytes, maxPixels: maxPixels) else { return }
        let again = try? PNG.decode(PNG.encode(image), maxPixels: maxPixels)
        require(again == image, "decoded PNG does not survive PNG.encode and decode")
    }

    static func checkPGM(_ bytes: [UInt8]) {
        guard let image = try? PGM.decode(bytes, maxPixels: maxPixels) else { return }
        let again = try? PGM.decode(PGM.encode(image), maxPixels: maxPixels)
        require(again == image, "decoded PGM does not survive PGM.encode and decode")
    }

    /// Headers declaring more pixels than the limit, or more than the file can hold, are
    /// refused before the pixels are allocated.
    static func pngOversize() {
        for (width, height) in [(1025, 1024), (65_537, 1), (1 << 31 - 1, 1 << 31 - 1)] {
            let file = pngHeaderOnly(width: width, height: height)
            AllocationMeter.requireAtMost(maxPixels, "PNG header of \(width)×\(height)") {
                do throws(QRError) {
                    _ = try PNG.decode(file, maxPixels: maxPixels)
                    require(false, "a \(width)×\(height) PNG was accepted")
                } catch {
                    require(error.kind == .imageTooLarge, "\(width)×\(height) PNG: \(error)")
                }
            }
        }
    }

    static func pgmOversize() {
        for header in ["P5 1025 1024 255\n", "P2 1025 1024 255\n", "P5 999999999 999999999 255\n"] {
            let file = Array(header.utf8) + [0]
            AllocationMeter.requireAtMost(maxPixels, "PGM header \(header.dropLast())") {
                do throws(QRError) {
                    _ = try PGM.decode(file, maxPixels: maxPixels)
                    require(false, "PGM \(header.dropLast()) was accepted")
                } catch {
                    require(error.kind == .imageTooLarge, "PGM \(header.dropLast()): \(error)")
                }
            }
        }
    }

    /// Signature and an IHDR (8-bit grey) with a correct CRC, nothing after.
    private static func pngHeaderOnly(width: Int, height: Int) -> [UInt8] {
        PNGBuilder.signature
            + PNGBuilder.chunk(
                "IHDR",
                EnvelopeTarget.bigEndian32(width) + EnvelopeTarget.bigEndian32(height)
                    + [8, 0, 0, 0, 0])
    }
}
