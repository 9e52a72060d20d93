import QR

extension ESCPOS {
    /// The raster images (`GS v 0`) of a stream, for tests and a print preview.
    ///
    /// The stream is walked command by command, so image data and text are never mistaken for
    /// commands. Understood and skipped: text and LF/CR/HT/FF, `ESC @ a E d ! t - 2 3 J M G
    /// SP p *`, `GS ! B V ( k ( L L W`, `DLE EOT`. Consecutive `GS v 0` blocks of the same
    /// width with nothing between them are one image (that is how `raster` splits tall
    /// images into bands). Modes 1–3 (double width / height / both) are drawn enlarged.
    ///
    /// - Throws: `PrintingError` `.malformedStream` naming the byte offset, for an unknown or
    ///   truncated command, a raster block with zero width or height or a mode other than
    ///   0–3 / '0'–'3', or raster data shorter than its header says.
    public static func renderRaster(_ stream: [UInt8]) throws(PrintingError) -> [GreyImage] {
        var parser = StreamParser(stream)
        return try parser.parse()
    }
}

private struct StreamParser {
    let bytes: [UInt8]
    var offset = 0
    var images: [GreyImage] = []
    /// Rows of the image being assembled and the offset just past its last block.
    var pending: (width: Int, rows: [UInt8], end: Int)?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func parse() throws(PrintingError) -> [GreyImage] {
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case 0x1B: try escape()
            case 0x1D: try groupSeparator()
            case 0x10:  // DLE EOT n (real-time status request)
                try need(3, "DLE")
                guard bytes[offset + 1] == 0x04 else { throw unknown("DLE", bytes[offset + 1]) }
                offset += 3
            case 0x0A, 0x0D, 0x09, 0x0C: offset += 1
            case 0x00..<0x20, 0x7F:
                throw PrintingError(
                    .malformedStream, "unexpected control byte 0x\(hex(byte)) at offset \(offset)")
            default: offset += 1  // text
            }
        }
        flush()
        return images
    }

    mutating func escape() throws(PrintingError) {
        try need(2, "ESC")
        let command = bytes[offset + 1]
        switch command {
        case 0x40, 0x32: offset += 2  // @ initialise, 2 default line spacing
        case 0x61, 0x45, 0x64, 0x21, 0x74, 0x2D, 0x33, 0x4A, 0x4D, 0x47, 0x20, 0x52, 0x7B:
            try need(3, "ESC \(printable(command))")  // a E d ! t - 3 J M G SP R {: one parameter
            offset += 3
        case 0x70:  // p m t1 t2: drawer kick
            try need(5, "ESC p")
            offset += 5
        case 0x2A:  // * m nL nH data: column bit image
            try need(5, "ESC *")
            let mode = bytes[offset + 2]
            let columns = Int(bytes[offset + 3]) | Int(bytes[offset + 4]) << 8
            let perColumn: Int
            switch mode {
            case 0, 1: perColumn = 1
            case 32, 33: perColumn = 3
            default:
                throw PrintingError(.malformedStream, "ESC * with mode \(mode) at offset \(offset)")
            }
            try need(5 + columns * perColumn, "ESC * data")
            offset += 5 + columns * perColumn
        default: throw unknown("ESC", command)
        }
    }

    mutating func groupSeparator() throws(PrintingError) {
        try need(2, "GS")
        let command = bytes[offset + 1]
        switch command {
        case 0x21, 0x42, 0x48, 0x66, 0x68, 0x77:  // ! B H f h w: one parameter
            try need(3, "GS \(printable(command))")
            offset += 3
        case 0x4C, 0x57:  // L W nL nH: margins
            try need(4, "GS \(printable(command))")
            offset += 4
        case 0x56:  // V m [n]: cut
            try need(3, "GS V")
            switch bytes[offset + 2] {
            case 0, 1, 0x30, 0x31: offset += 3
            case 0x41, 0x42, 0x61, 0x62, 0x67, 0x68:
                try need(4, "GS V")
                offset += 4
            default:
                throw PrintingError(
                    .malformedStream, "GS V with function \(bytes[offset + 2]) at offset \(offset)")
            }
        case 0x28:  // ( fn pL pH data: k (2-D codes), L (graphics), E, …
            try need(5, "GS (")
            let length = Int(bytes[offset + 3]) | Int(bytes[offset + 4]) << 8
            try need(5 + length, "GS ( \(printable(bytes[offset + 2])) data")
            offset += 5 + length
        case 0x76: try rasterBlock()
        default: throw unknown("GS", command)
        }
    }

    /// `GS v 0 m xL xH yL yH d1…dk`, k = (xL + xH·256)(yL + yH·256).
    mutating func rasterBlock() throws(PrintingError) {
        let start = offset
        try need(3, "GS v")
        guard bytes[offset + 2] == 0x30 else { throw unknown("GS v", bytes[offset + 2]) }
        try need(8, "GS v 0")
        let mode = bytes[offset + 3]
        guard (0...3).contains(mode) || (0x30...0x33).contains(mode) else {
            throw PrintingError(.malformedStream, "GS v 0 with mode \(mode) at offset \(start)")
        }
        let rowBytes = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
        let rows = Int(bytes[offset + 6]) | Int(bytes[offset + 7]) << 8
        guard rowBytes > 0, rows > 0 else {
            throw PrintingError(
                .malformedStream, "GS v 0 of \(rowBytes) bytes × \(rows) rows at offset \(start)")
        }
        let count = rowBytes * rows
        guard bytes.count - (offset + 8) >= count else {
            throw PrintingError(
                .malformedStream,
                "GS v 0 at offset \(start) announces \(count) data bytes (\(rowBytes) × \(rows)); the stream has \(bytes.count - offset - 8)"
            )
        }
        let doubleWidth = mode & 1 != 0
        let doubleHeight = mode & 2 != 0
        let width = rowBytes * 8 * (doubleWidth ? 2 : 1)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * rows * (doubleHeight ? 2 : 1))
        let data = offset + 8
        for y in 0..<rows {
            var row: [UInt8] = []
            row.reserveCapacity(width)
            for x in 0..<(rowBytes * 8) {
                let dark = bytes[data + y * rowBytes + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                let value: UInt8 = dark ? 0 : 255
                row.append(value)
                if doubleWidth { row.append(value) }
            }
            pixels += row
            if doubleHeight { pixels += row }
        }
        if let current = pending, current.end == start, current.width == width {
            pending = (width, current.rows + pixels, data + count)
        } else {
            flush()
            pending = (width, pixels, data + count)
        }
        offset = data + count
    }

    mutating func flush() {
        guard let current = pending else { return }
        images.append(
            GreyImage(
                width: current.width, height: current.rows.count / current.width,
                pixels: current.rows))
        pending = nil
    }

    func need(_ count: Int, _ what: String) throws(PrintingError) {
        guard bytes.count - offset >= count else {
            throw PrintingError(
                .malformedStream,
                "\(what) at offset \(offset) is truncated: needs \(count) bytes, the stream has \(bytes.count - offset)"
            )
        }
    }

    func unknown(_ prefix: String, _ command: UInt8) -> PrintingError {
        PrintingError(
            .malformedStream, "unknown command \(prefix) 0x\(hex(command)) at offset \(offset)")
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}

private func printable(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "0x" + hex(byte)
}
