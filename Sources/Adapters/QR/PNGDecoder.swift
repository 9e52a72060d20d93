extension PNG {
    /// Decodes a non-interlaced PNG of any standard colour type and bit depth into 8-bit grey:
    /// colour by Rec. 601 luma, transparency composited over white (a QR code's background).
    ///
    /// Memory stays bounded: the pixel count is checked against `maxPixels`, and each side
    /// against `maxSide`, before anything is allocated, and the data is inflated one scanline
    /// at a time (two scanline buffers beside the grey output). Every chunk CRC and the zlib
    /// Adler-32 are verified. Throws `.truncated`, `.badChecksum`, `.imageTooLarge`,
    /// `.unsupported` (interlaced, unknown critical chunk) or `.malformed`.
    public static func decode(
        _ bytes: [UInt8], maxPixels: Int = defaultMaxPixels
    ) throws(QRError) -> GreyImage {
        let chunks = try PNGChunks(bytes, maxPixels: maxPixels)
        let header = chunks.header
        let converter = try PNGRowConverter(
            header: header, palette: chunks.palette, transparency: chunks.transparency)
        let rowBytes = header.rowBytes
        var row = [UInt8](repeating: 0, count: rowBytes + 1)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var pixels = [UInt8](repeating: 0, count: header.width * header.height)
        let inflater = try Inflater()
        var nextIDAT = chunks.imageData.makeIterator()
        for y in 0..<header.height {
            var filled = 0
            while true {
                filled = try inflater.fill(&row, from: filled)
                if filled == row.count { break }
                guard let range = nextIDAT.next() else {
                    throw QRError(
                        .truncated,
                        "PNG image data ends at scanline \(y) of \(header.height)")
                }
                inflater.feed(bytes[range])
            }
            try pngUnfilter(
                row[0], &row, from: 1, count: rowBytes, previous: previous, bpp: header.filterUnit)
            try converter.convert(row, into: &pixels, at: y * header.width)
            for i in 0..<rowBytes { previous[i] = row[i + 1] }
        }
        while try !inflater.finish() {
            guard let range = nextIDAT.next() else {
                throw QRError(.truncated, "PNG zlib stream ends before its checksum")
            }
            inflater.feed(bytes[range])
        }
        return GreyImage(width: header.width, height: header.height, pixels: pixels)
    }
}

/// IHDR, the fields the decoder needs, validated.
struct PNGHeader {
    let width: Int
    let height: Int
    let bitDepth: Int
    let colorType: Int

    /// Samples per pixel for the colour type.
    var channels: Int {
        switch colorType {
        case 2: 3
        case 4: 2
        case 6: 4
        default: 1
        }
    }
    var rowBytes: Int { (width * channels * bitDepth + 7) / 8 }
    /// The filters' "bytes per complete pixel", rounded up to 1 for sub-byte depths.
    var filterUnit: Int { max(1, channels * bitDepth / 8) }

    init(_ data: ArraySlice<UInt8>, maxPixels: Int) throws(QRError) {
        let d = Array(data)
        width = Int(readBigEndian(d, 0))
        height = Int(readBigEndian(d, 4))
        bitDepth = Int(d[8])
        colorType = Int(d[9])
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw QRError(.malformed, "PNG dimensions \(width)×\(height) are invalid")
        }
        let allowed: [Int] =
            switch colorType {
            case 0: [1, 2, 4, 8, 16]
            case 3: [1, 2, 4, 8]
            case 2, 4, 6: [8, 16]
            default: []
            }
        guard allowed.contains(bitDepth) else {
            throw QRError(
                .malformed, "PNG colour type \(colorType) with bit depth \(bitDepth) is invalid")
        }
        guard d[10] == 0, d[11] == 0 else {
            throw QRError(
                .malformed, "PNG compression method \(d[10]) / filter method \(d[11]) is unknown")
        }
        guard d[12] == 0 else {
            throw QRError(
                .unsupported,
                d[12] == 1
                    ? "interlaced (Adam7) PNG images are not supported; save it non-interlaced"
                    : "PNG interlace method \(d[12]) is unknown")
        }
        // The side limit bounds the two scanline buffers (8 bytes a pixel at most); the pixel
        // limit bounds the output.
        guard width <= PNG.maxSide, height <= PNG.maxSide else {
            throw QRError(
                .imageTooLarge,
                "PNG of \(width)×\(height) pixels exceeds the limit of \(PNG.maxSide) pixels "
                    + "a side")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw QRError(
                .imageTooLarge,
                "PNG of \(width)×\(height) pixels exceeds the limit of \(maxPixels) pixels")
        }
    }
}

func readBigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
        | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
}
