/// PNG reading and writing on zlib alone, so printing and scanning need no ImageMagick at
/// run time. Writes 8-bit greyscale; reads the common forms and turns them into grey.
public enum PNG {
    /// Default ceiling on width × height for `decode`: 64 megapixels (a 64 MB grey image).
    public static let defaultMaxPixels = 64 * 1024 * 1024

    /// Widest or tallest PNG `decode` accepts, whatever the pixel limit: 65,536.
    public static let maxSide = 65_536

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// An 8-bit greyscale, non-interlaced PNG: IHDR, one IDAT (each row filtered with the
    /// best of None/Sub/Up/Paeth, then `compress2` at level 6), IEND, each with its CRC.
    public static func encode(_ image: GreyImage) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(image.height * (image.width + 1))
        let zeros = [UInt8](repeating: 0, count: image.width)
        for y in 0..<image.height {
            let row = image.pixels[(y * image.width)..<((y + 1) * image.width)]
            let previous =
                y == 0 ? zeros[...] : image.pixels[((y - 1) * image.width)..<(y * image.width)]
            pngFilterBest(row, previous: previous, bpp: 1, into: &raw)
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(image.width))
        header += bigEndian(UInt32(image.height))
        // Bit depth 8, greyscale, deflate, adaptive filtering, not interlaced.
        header += [8, 0, 0, 0, 0]
        var file = signature
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", zlibCompress(raw), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        file += bigEndian(UInt32(data.count))
        let start = file.count
        file += Array(type.utf8)
        file += data
        file += bigEndian(crc32(file[start...]))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
            UInt8(value & 0xFF),
        ]
    }
}
