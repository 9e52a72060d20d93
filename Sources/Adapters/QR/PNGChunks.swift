/// Walks a PNG's chunks once, checking each CRC, and keeps what decoding needs: the header,
/// palette, transparency, and where the IDAT data lies (ranges, not copies).
struct PNGChunks {
    private(set) var header: PNGHeader
    private(set) var palette: [UInt8]?
    private(set) var transparency: [UInt8]?
    private(set) var imageData: [Range<Int>] = []

    init(_ bytes: [UInt8], maxPixels: Int) throws(QRError) {
        let signature = PNG.signature
        guard bytes.count >= signature.count else {
            if bytes.elementsEqual(signature.prefix(bytes.count)) && !bytes.isEmpty {
                throw QRError(
                    .truncated, "PNG file ends inside its signature (\(bytes.count) bytes)")
            }
            throw QRError(.malformed, "not a PNG file: the 8-byte signature is missing")
        }
        guard bytes[0..<8].elementsEqual(signature) else {
            throw QRError(.malformed, "not a PNG file: the 8-byte signature is missing")
        }
        var offset = 8
        var header: PNGHeader?
        var sawEnd = false
        while !sawEnd {
            guard offset + 8 <= bytes.count else {
                throw QRError(
                    .truncated, "PNG file ends at byte \(bytes.count) before its IEND chunk")
            }
            let length = Int(readBigEndian(bytes, offset))
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= Int(Int32.max) else {
                throw QRError(.malformed, "PNG chunk \(type) declares an impossible length")
            }
            let dataStart = offset + 8
            let dataEnd = dataStart + length
            guard dataEnd + 4 <= bytes.count else {
                throw QRError(
                    .truncated,
                    "PNG chunk \(type) declares \(length) bytes but the file ends "
                        + "\(bytes.count - dataStart) bytes in")
            }
            let stored = readBigEndian(bytes, dataEnd)
            let computed = crc32(bytes[(offset + 4)..<dataEnd])
            guard stored == computed else {
                throw QRError(
                    .badChecksum,
                    "PNG chunk \(type) at byte \(offset) has a bad CRC (stored "
                        + "\(hex(stored)), computed \(hex(computed)))")
            }
            let data = bytes[dataStart..<dataEnd]
            switch type {
            case "IHDR":
                guard header == nil, offset == 8, length == 13 else {
                    throw QRError(.malformed, "PNG IHDR chunk is misplaced or not 13 bytes")
                }
                header = try PNGHeader(data, maxPixels: maxPixels)
            case _ where header == nil:
                throw QRError(.malformed, "PNG does not start with an IHDR chunk")
            case "PLTE":
                guard length % 3 == 0, (3...768).contains(length) else {
                    throw QRError(.malformed, "PNG palette of \(length) bytes is invalid")
                }
                palette = Array(data)
            case "tRNS": transparency = Array(data)
            case "IDAT": imageData.append(dataStart..<dataEnd)
            case "IEND": sawEnd = true
            default:
                // Bit 5 of the first letter clear (uppercase) marks a chunk a decoder must
                // understand to show the image correctly.
                if typeBytes.first! & 0x20 == 0 {
                    throw QRError(.unsupported, "PNG has unknown critical chunk \(type)")
                }
            }
            offset = dataEnd + 4
        }
        guard let header else { throw QRError(.malformed, "PNG has no IHDR chunk") }
        guard !imageData.isEmpty else { throw QRError(.malformed, "PNG has no IDAT chunk") }
        if header.colorType == 3 && palette == nil {
            throw QRError(.malformed, "palette PNG has no PLTE chunk")
        }
        self.header = header
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
