/// Writes PNG files whose chunk CRCs and zlib Adler-32 are right, from fuzz input, so that
/// mutations are not all stopped by the checksums.
enum PNGBuilder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads: colour type, bit depth (either may be an invalid pairing), width - 1,
    /// height - 1 (mod 64), flags (bit 0 PLTE, bit 1 tRNS, bit 2 two IDATs, bit 3 interlaced),
    /// the PLTE and tRNS lengths and bytes when present, then the scanlines (filter bytes
    /// included) as they are: short, long or exact.
    static func build(_ reader: inout ByteReader) -> [UInt8] {
        let colourType = [0, 2, 3, 4, 6][Int(reader.byte()) % 5]
        let bitDepth = [1, 2, 4, 8, 16][Int(reader.byte()) % 5]
        let width = Int(reader.byte()) + 1
        let height = Int(reader.byte()) % 64 + 1
        let flags = reader.byte()
        var file = signature
        let header =
            EnvelopeTarget.bigEndian32(width) + EnvelopeTarget.bigEndian32(height)
            + [UInt8(bitDepth), UInt8(colourType), 0, 0, flags & 8 != 0 ? 1 : 0]
        file += chunk("IHDR", header)
        if flags & 1 != 0 { file += chunk("PLTE", take(&reader, (Int(reader.byte()) + 1) * 3)) }
        if flags & 2 != 0 { file += chunk("tRNS", take(&reader, Int(reader.byte()))) }
        let stream = storedZlib(Array(reader.rest))
        if flags & 4 != 0 {
            let half = stream.count / 2
            file += chunk("IDAT", Array(stream[..<half])) + chunk("IDAT", Array(stream[half...]))
        } else {
            file += chunk("IDAT", stream)
        }
        return file + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return EnvelopeTarget.bigEndian32(data.count) + body
            + EnvelopeTarget.bigEndian32(Int(HarnessCRC32.checksum(body[...])))
    }

    /// Every whole chunk after the signature with its CRC recomputed.
    static func repairingChunkCRCs(_ bytes: [UInt8]) -> [UInt8] {
        var file = bytes
        var offset = signature.count
        while offset + 12 <= file.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(file[offset + $1]) }
            guard length <= file.count - offset - 12 else { break }
            let end = offset + 8 + length
            let crc = HarnessCRC32.checksum(file[(offset + 4)..<end])
            for index in 0..<4 {
                file[end + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index))
            }
            offset = end + 4
        }
        return file
    }

    private static func take(_ reader: inout ByteReader, _ count: Int) -> [UInt8] {
        (0..<count).map { _ in reader.byte() }
    }

    /// A zlib stream of stored (uncompressed) deflate blocks, with its Adler-32.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let count = end - start
            out.append(end == data.count ? 1 : 0)
            out += [
                UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF),
                UInt8(~count >> 8 & 0xFF),
            ]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + EnvelopeTarget.bigEndian32(Int(b << 16 | a))
    }
}
