/// Netpbm greymaps: the simplest lossless interchange with tools such as ffmpeg and
/// ImageMagick. Writes binary P5; reads P5 (8- or 16-bit) and ASCII P2.
public enum PGM {
    /// A binary (P5) greymap with maxval 255.
    public static func encode(_ image: GreyImage) -> [UInt8] {
        Array("P5\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }

    /// Reads P5 or P2 with any maxval up to 65535 (scaled to 0…255), `#` comments allowed.
    /// Refuses more than `maxPixels` pixels before allocating. Throws `.truncated`,
    /// `.imageTooLarge` or `.malformed`.
    public static func decode(
        _ bytes: [UInt8], maxPixels: Int = PNG.defaultMaxPixels
    ) throws(QRError) -> GreyImage {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "P"),
            bytes[1] == UInt8(ascii: "5") || bytes[1] == UInt8(ascii: "2")
        else { throw QRError(.malformed, "not a PGM file: it must start with P5 or P2") }
        let binary = bytes[1] == UInt8(ascii: "5")
        var reader = NetpbmReader(bytes: bytes, offset: 2)
        let width = try reader.number("width")
        let height = try reader.number("height")
        let maxValue = try reader.number("maxval")
        guard width > 0, height > 0, (1...65535).contains(maxValue) else {
            throw QRError(
                .malformed, "PGM header \(width)×\(height) maxval \(maxValue) is invalid")
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= maxPixels else {
            throw QRError(
                .imageTooLarge,
                "PGM of \(width)×\(height) pixels exceeds the limit of \(maxPixels) pixels")
        }
        var pixels = [UInt8](repeating: 0, count: count)
        if binary {
            // Exactly one whitespace byte separates the header from the samples.
            let start = reader.offset + 1
            let sampleBytes = maxValue > 255 ? 2 : 1
            guard start + count * sampleBytes <= bytes.count else {
                throw QRError(
                    .truncated,
                    "PGM needs \(count * sampleBytes) sample bytes but has "
                        + "\(max(0, bytes.count - start))")
            }
            for i in 0..<count {
                let value =
                    sampleBytes == 1
                    ? Int(bytes[start + i])
                    : Int(bytes[start + 2 * i]) << 8 | Int(bytes[start + 2 * i + 1])
                pixels[i] = try scaled(value, maxValue)
            }
        } else {
            for i in 0..<count { pixels[i] = try scaled(reader.number("sample \(i)"), maxValue) }
        }
        return GreyImage(width: width, height: height, pixels: pixels)
    }

    private static func scaled(_ value: Int, _ maxValue: Int) throws(QRError) -> UInt8 {
        guard value <= maxValue else {
            throw QRError(.malformed, "PGM sample \(value) exceeds maxval \(maxValue)")
        }
        return maxValue == 255 ? UInt8(value) : UInt8((value * 255 + maxValue / 2) / maxValue)
    }
}

/// Whitespace- and comment-separated ASCII decimals of a Netpbm header or P2 body.
private struct NetpbmReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func number(_ what: String) throws(QRError) -> Int {
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "#") {
                while offset < bytes.count && bytes[offset] != UInt8(ascii: "\n") { offset += 1 }
            } else if byte == 0x20 || (0x09...0x0D).contains(byte) {
                offset += 1
            } else {
                break
            }
        }
        guard offset < bytes.count else {
            throw QRError(.truncated, "PGM file ends before its \(what)")
        }
        var value = 0
        var digits = 0
        while offset < bytes.count, (0x30...0x39).contains(bytes[offset]) {
            value = value * 10 + Int(bytes[offset] - 0x30)
            digits += 1
            offset += 1
            guard digits <= 9 else { throw QRError(.malformed, "PGM \(what) is too large") }
        }
        guard digits > 0 else { throw QRError(.malformed, "PGM \(what) is not a number") }
        return value
    }
}
