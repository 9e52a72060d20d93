import QR
import Testing

/// PNGs built byte by byte here (stored zlib blocks, a chosen filter on every row), so each
/// of the five filter types and the Adler-32 check are exercised independently of any
/// encoder, ours or ImageMagick's.
@Suite struct PNGFilterTests {
    @Test(arguments: [UInt8(0), 1, 2, 3, 4], [1, 3])
    func everyFilterTypeDecodes(filter: UInt8, channels: Int) throws {
        let image = PNGTests.sampleImage(width: 23, height: 11, seed: UInt64(filter) + 10)
        // Grey, or RGB with R = G = B so the luma is the grey value itself.
        let samples = image.pixels.flatMap { [UInt8](repeating: $0, count: channels) }
        let png = handMadePNG(
            width: image.width, height: image.height, colorType: channels == 1 ? 0 : 2,
            samples: samples, filters: { _ in filter })
        #expect(try PNG.decode(png) == image)
    }

    @Test func mixedFiltersRowByRow() throws {
        let image = PNGTests.sampleImage(width: 40, height: 25, seed: 77)
        let png = handMadePNG(
            width: image.width, height: image.height, colorType: 0, samples: image.pixels,
            filters: { UInt8($0 % 5) })
        #expect(try PNG.decode(png) == image)
    }

    @Test func unknownFilterTypeIsRefused() {
        let png = handMadePNG(
            width: 4, height: 2, colorType: 0, samples: [UInt8](repeating: 9, count: 8),
            filters: { _ in 5 })
        let error = #expect(throws: QRError.self) { try PNG.decode(png) }
        #expect(error?.kind == .malformed)
        #expect(error?.message.contains("filter type 5") == true)
    }

    @Test func badAdler32IsRefused() {
        var png = handMadePNG(
            width: 4, height: 2, colorType: 0, samples: [UInt8](repeating: 9, count: 8),
            filters: { _ in 0 })
        // The Adler-32 is the last 4 bytes of the IDAT data, just before its CRC and IEND.
        let adlerEnd = png.count - 12 - 4
        png[adlerEnd - 1] ^= 0xFF
        fixCRC(&png, chunkAt: 33)
        let error = #expect(throws: QRError.self) { try PNG.decode(png) }
        #expect(error?.kind == .badChecksum)
    }

    @Test func idatSplitAcrossManyChunksDecodes() throws {
        let image = PNGTests.sampleImage(width: 30, height: 30, seed: 8)
        let png = handMadePNG(
            width: 30, height: 30, colorType: 0, samples: image.pixels, filters: { _ in 4 },
            idatPieceSize: 7)
        #expect(try PNG.decode(png) == image)
    }

    @Test func paletteIndexOutsideThePaletteIsRefused() {
        let png = handMadePNG(
            width: 2, height: 1, colorType: 3, samples: [0, 2], filters: { _ in 0 },
            palette: [0, 0, 0, 255, 255, 255])
        let error = #expect(throws: QRError.self) { try PNG.decode(png) }
        #expect(error?.kind == .malformed)
    }
}

/// An 8-bit PNG of `samples` (row-major, `channels` per pixel for the colour type), each
/// row filtered with `filters(row)`, compressed as stored zlib blocks.
func handMadePNG(
    width: Int, height: Int, colorType: UInt8, samples: [UInt8], filters: (Int) -> UInt8,
    palette: [UInt8]? = nil, idatPieceSize: Int = .max
) -> [UInt8] {
    let bpp = samples.count / (width * height)
    let rowBytes = width * bpp
    var raw: [UInt8] = []
    var previous = [UInt8](repeating: 0, count: rowBytes)
    for y in 0..<height {
        let row = Array(samples[(y * rowBytes)..<((y + 1) * rowBytes)])
        let type = filters(y)
        raw.append(type)
        for i in 0..<rowBytes {
            let a = i >= bpp ? Int(row[i - bpp]) : 0
            let b = Int(previous[i])
            let c = i >= bpp ? Int(previous[i - bpp]) : 0
            let predictor: Int
            switch type {
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            default: predictor = 0
            }
            raw.append(row[i] &- UInt8(predictor & 0xFF))
        }
        previous = row
    }
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    appendTestChunk(
        "IHDR", bigEndian32(width) + bigEndian32(height) + [8, colorType, 0, 0, 0], to: &file)
    if let palette { appendTestChunk("PLTE", palette, to: &file) }
    let stream = storedZlib(raw)
    var offset = 0
    while offset < stream.count {
        let end = min(
            stream.count,
            offset.addingReportingOverflow(idatPieceSize).overflow
                ? stream.count : offset + idatPieceSize)
        appendTestChunk("IDAT", Array(stream[offset..<end]), to: &file)
        offset = end
    }
    appendTestChunk("IEND", [], to: &file)
    return file
}

/// A zlib stream of uncompressed ("stored") deflate blocks with its Adler-32.
func storedZlib(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let count = min(65535, data.count - offset)
        let final: UInt8 = offset + count == data.count ? 1 : 0
        out += [final, UInt8(count & 0xFF), UInt8(count >> 8)]
        out += [UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
        out += data[offset..<(offset + count)]
        offset += count
    } while offset < data.count
    var (a, b): (UInt32, UInt32) = (1, 0)
    for byte in data {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    return out + bigEndian32(Int(b << 16 | a))
}

private func bigEndian32(_ value: Int) -> [UInt8] {
    [
        UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
        UInt8(value & 0xFF),
    ]
}

private func appendTestChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
    let start = file.count
    file += bigEndian32(data.count) + Array(type.utf8) + data + [0, 0, 0, 0]
    fixCRC(&file, chunkAt: start)
}
